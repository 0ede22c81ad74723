// api.js: every call the page makes to the `onca serve` JSON API (contract v1), including the
// server-sent-event streams that answer a POST. Errors come back as ApiError carrying the
// server's `error` text, so callers can show them instead of letting them escape.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

// The server names the problem in {"error": ...}; anything else (a proxy page, a dropped
// connection) still becomes a readable message.
async function errorFrom(response) {
  let text = '';
  try {
    text = await response.text();
    const body = JSON.parse(text);
    if (body && typeof body.error === 'string') return new ApiError(body.error, response.status);
  } catch (_) {
    // not JSON: fall through to the raw text
  }
  const detail = text.trim().slice(0, 200) || response.statusText;
  return new ApiError(`HTTP ${response.status}: ${detail}`, response.status);
}

async function send(path, body, signal) {
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(`cannot reach the engine: ${err.message}`, 0);
  }
  if (!response.ok) throw await errorFrom(response);
  return response;
}

async function json(path, body) {
  const response = await send(path, body);
  try {
    return await response.json();
  } catch (err) {
    throw new ApiError(`bad answer from ${path}: ${err.message}`, response.status);
  }
}

export const getBoard = () => json('/api/board');
export const postGame = (game) => json('/api/game', game);
export const importPdn = (text) => json('/api/pdn/import', { text });
export const exportPdn = (request) => json('/api/pdn/export', request);

// Parses a text/event-stream body by hand (EventSource only does GET). Each event is a block of
// `event:` and `data:` lines ended by a blank line; `data` lines of one event join with "\n".
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const dispatch = (block) => {
    let type = 'message';
    const data = [];
    for (const rawLine of block.split('\n')) {
      const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    let payload;
    try {
      payload = JSON.parse(data.join('\n'));
    } catch (err) {
      throw new ApiError(`bad event data (${type}): ${err.message}`, response.status);
    }
    if (type === 'error') throw new ApiError(payload.error || 'the engine reported an error', 500);
    onEvent(type, payload);
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      dispatch(block);
    }
  }
  buffer += decoder.decode();
  if (buffer.trim() !== '') dispatch(buffer);
}

// A search asked for right after another was aborted may find the old one still giving its
// thread back; the server waits for that (up to two seconds) before it answers busy.
async function stream(path, body, signal, onEvent) {
  const response = await send(path, body, signal);
  await readEvents(response, onEvent);
}

// handlers: {info(data), done(data)}; resolves once the stream ends (done, depth reached, abort
// rejects with AbortError).
export function search(request, signal, handlers) {
  return stream('/api/search', request, signal, (type, data) => handlers[type]?.(data));
}

// handlers: {progress(data), review(data)}.
export function review(request, signal, handlers) {
  return stream('/api/review', request, signal, (type, data) => handlers[type]?.(data));
}
