// board.js: draws the 8x8 board (squares, coordinates, SVG pieces, last move, capture routes,
// the engine's arrow) and turns clicks and drags into one of the legal moves it was given. It
// knows no rules: the legal list from /api/game decides what may move where, and the square
// geometry comes from /api/board, so the numbering is never hard-coded here.

const SVG_NS = 'http://www.w3.org/2000/svg';
const CELL = 100; // overlay units per square; the overlay's viewBox is 800 x 800
const DRAG_THRESHOLD_PX = 4;

// A crown, so that a king reads as a king even at small sizes and in greyscale.
const CROWN_PATH = 'M28 60 L24 36 L37 47 L50 30 L63 47 L76 36 L72 60 Z';

export function pieceSvg(color, king) {
  const kind = `${color}-${king ? 'king' : 'man'}`;
  const crown = king
    ? `<path class="crown" d="${CROWN_PATH}"/><rect class="crown" x="28" y="62" width="44" height="6" rx="2"/>`
    : '<circle class="inner" cx="50" cy="47" r="19"/>';
  return `<svg class="piece ${color}${king ? ' king' : ''}" data-piece="${kind}" viewBox="0 0 100 100" aria-label="${color} ${king ? 'king' : 'man'}">`
    + '<ellipse class="side" cx="50" cy="55" rx="41" ry="39"/>'
    + '<circle class="face" cx="50" cy="47" r="39"/>'
    + '<circle class="ring" cx="50" cy="47" r="29"/>'
    + crown
    + '</svg>';
}

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

export class BoardView {
  // squares: the /api/board list; chooser: the element used to ask which of two moves is meant.
  constructor(root, squares, chooser) {
    this.root = root;
    this.chooser = chooser;
    this.squares = new Map(squares.map((s) => [s.number, s]));
    this.flipped = false;
    this.notation = 'algebraic';
    this.pieces = new Map();     // square -> {color, king}
    this.legal = [];
    this.interactive = true;
    this.selected = null;
    this.hovered = null;
    this.lastMove = null;
    this.arrowRoute = null;
    this.editHandler = null;
    this.onMove = () => {};
    this.drag = null;
    this.build();
  }

  // Static structure: 64 cells, an SVG overlay for lines and arrows, coordinate gutters.
  build() {
    this.root.innerHTML = '';
    this.grid = document.createElement('div');
    this.grid.className = 'grid';
    this.cells = new Map(); // square number -> cell element
    this.cellList = [];
    for (let i = 0; i < 64; i++) {
      const cell = document.createElement('div');
      cell.className = 'cell';
      this.grid.appendChild(cell);
      this.cellList.push(cell);
    }
    this.overlay = svgElement('svg', { class: 'overlay', viewBox: '0 0 800 800', 'aria-hidden': 'true' });
    const defs = svgElement('defs', {});
    defs.innerHTML = '<marker id="arrow-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" class="arrow-head"/></marker>';
    this.overlay.appendChild(defs);
    this.lastLayer = svgElement('g', { class: 'layer-last' });
    this.routeLayer = svgElement('g', { class: 'layer-routes' });
    this.arrowLayer = svgElement('g', { class: 'layer-arrow' });
    this.overlay.append(this.lastLayer, this.routeLayer, this.arrowLayer);
    this.files = document.createElement('div');
    this.files.className = 'coords files';
    this.ranks = document.createElement('div');
    this.ranks.className = 'coords ranks';
    this.root.append(this.grid, this.overlay, this.files, this.ranks);
    this.layout();

    this.grid.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.grid.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.grid.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.grid.addEventListener('pointercancel', () => this.cancelDrag());
    this.grid.addEventListener('pointerover', (e) => this.hover(this.squareOf(e.target)));
    this.grid.addEventListener('pointerleave', () => this.hover(null));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { this.hideChooser(); this.select(null); }
    });
    document.addEventListener('pointerdown', (e) => {
      if (!this.chooser.hidden && !this.chooser.contains(e.target)) this.hideChooser();
    });
  }

  // Display position of a board square: column 0..7 from the left, row 0..7 from the top.
  place(number) {
    const { file, rank } = this.squares.get(number);
    return this.flipped ? { col: 7 - file, row: rank } : { col: file, row: 7 - rank };
  }

  centre(number) {
    const { col, row } = this.place(number);
    return [col * CELL + CELL / 2, row * CELL + CELL / 2];
  }

  // Places the dark squares in the grid for the current orientation (and the coordinates).
  layout() {
    this.cells.clear();
    this.cellList.forEach((cell, index) => {
      cell.className = (Math.floor(index / 8) + index) % 2 === 0 ? 'cell light' : 'cell dark';
      delete cell.dataset.square;
      cell.innerHTML = '';
    });
    for (const number of this.squares.keys()) {
      const { col, row } = this.place(number);
      const cell = this.cellList[row * 8 + col];
      cell.className = 'cell dark';
      cell.dataset.square = String(number);
      cell.innerHTML = `<span class="number">${number}</span><div class="holder"></div>`;
      this.cells.set(number, cell);
    }
    const fileNames = 'abcdefgh';
    const positions = [...Array(8).keys()]; // display column (left to right) or row (top down)
    this.files.innerHTML = positions.map((c) => `<span>${fileNames[this.flipped ? 7 - c : c]}</span>`).join('');
    this.ranks.innerHTML = positions.map((r) => `<span>${this.flipped ? r + 1 : 8 - r}</span>`).join('');
    this.root.classList.toggle('numeric', this.notation === 'numeric');
    this.root.classList.toggle('flipped', this.flipped);
    this.renderedPieces = new Map();
    this.refresh();
  }

  setFlipped(flipped) {
    if (this.flipped === flipped) return;
    this.flipped = flipped;
    this.hideChooser();
    this.layout();
  }

  setNotation(notation) {
    this.notation = notation;
    this.root.classList.toggle('numeric', notation === 'numeric');
  }

  label(number) {
    return this.notation === 'numeric' ? String(number) : this.squares.get(number).name;
  }

  setPieces(pieces) {
    this.pieces = new Map(pieces.map((p) => [p.square, { color: p.color, king: p.king }]));
    this.refresh();
  }

  // moves: the legal moves of the shown position; interactive false freezes the board (the
  // engine is thinking, a request is on its way, or the game is over).
  setLegal(moves, interactive) {
    this.legal = moves;
    this.interactive = interactive;
    this.hideChooser();
    if (this.selected !== null && !this.movesFrom(this.selected).length) this.selected = null;
    this.refresh();
  }

  setLastMove(move) {
    this.lastMove = move;
    this.refresh();
  }

  setArrow(route) {
    this.arrowRoute = route;
    this.drawArrow();
  }

  // While set, a click on a dark square calls handler(square) (position set-up) instead of moving.
  setEditHandler(handler) {
    this.editHandler = handler;
    this.select(null);
    this.root.classList.toggle('editing', handler !== null);
    this.refresh();
  }

  movesFrom(square) {
    if (!this.interactive || this.editHandler) return [];
    return this.legal.filter((m) => m.from === square);
  }

  select(square) {
    this.selected = square;
    this.refresh();
  }

  hover(square) {
    if (square === this.hovered) return;
    this.hovered = square;
    if (this.selected !== null) this.drawRoutes();
  }

  // Redraws everything that depends on the pieces, the selection and the last move.
  refresh() {
    const movers = new Set(this.interactive && !this.editHandler ? this.legal.map((m) => m.from) : []);
    const options = this.selected === null ? [] : this.movesFrom(this.selected);
    const targets = new Set(options.map((m) => m.to));
    const taken = new Set(options.flatMap((m) => m.captured));
    const last = this.lastMove;
    for (const [number, cell] of this.cells) {
      const piece = this.pieces.get(number);
      const key = piece ? `${piece.color}-${piece.king}` : '';
      if (this.renderedPieces.get(number) !== key) {
        cell.querySelector('.holder').innerHTML = piece ? pieceSvg(piece.color, piece.king) : '';
        this.renderedPieces.set(number, key);
      }
      cell.classList.toggle('movable', movers.has(number));
      cell.classList.toggle('selected', number === this.selected);
      cell.classList.toggle('target', targets.has(number));
      cell.classList.toggle('taken', taken.has(number));
      cell.classList.toggle('last-from', !!last && last.from === number);
      cell.classList.toggle('last-to', !!last && last.to === number);
    }
    this.drawLastMove();
    this.drawRoutes();
    this.drawArrow();
  }

  polyline(route, className) {
    const points = route.map((sq) => this.centre(sq).join(',')).join(' ');
    return svgElement('polyline', { points, class: className });
  }

  drawLastMove() {
    this.lastLayer.innerHTML = '';
    const last = this.lastMove;
    if (!last || !last.captured || last.captured.length === 0) return;
    // API.md names the route `path`; the server sends `routes` as for legal moves: take either.
    const route = [last.path, last.routes?.[0]].find((r) => Array.isArray(r) && r.length >= 2) ?? [last.from, last.to];
    this.lastLayer.appendChild(this.polyline(route, 'last-route'));
    for (const sq of last.captured) {
      const [x, y] = this.centre(sq);
      this.lastLayer.appendChild(svgElement('circle', { cx: x, cy: y, r: 12, class: 'last-captured' }));
    }
  }

  // The selected piece's capture routes: landing squares as dots joined by lines, the route to
  // the hovered destination drawn stronger.
  drawRoutes() {
    this.routeLayer.innerHTML = '';
    if (this.selected === null) return;
    for (const move of this.movesFrom(this.selected)) {
      if (!move.captured.length) continue;
      const strong = move.to === this.hovered;
      for (const route of move.routes || [[move.from, move.to]]) {
        this.routeLayer.appendChild(this.polyline(route, strong ? 'route strong' : 'route'));
        for (const sq of route.slice(1, -1)) {
          const [x, y] = this.centre(sq);
          this.routeLayer.appendChild(svgElement('circle', { cx: x, cy: y, r: 9, class: strong ? 'stop strong' : 'stop' }));
        }
      }
    }
  }

  drawArrow() {
    this.arrowLayer.innerHTML = '';
    const route = this.arrowRoute;
    if (!route || route.length < 2 || !route.every((sq) => this.squares.has(sq))) return;
    const line = this.polyline(route, 'arrow');
    line.id = 'best-arrow';
    line.setAttribute('marker-end', 'url(#arrow-head)');
    this.arrowLayer.appendChild(line);
  }

  squareOf(target) {
    const cell = target instanceof Element ? target.closest('[data-square]') : null;
    return cell && this.grid.contains(cell) ? Number(cell.dataset.square) : null;
  }

  pointerDown(event) {
    if (event.button !== 0) return;
    const square = this.squareOf(event.target);
    if (square === null) return;
    if (this.editHandler) {
      this.editHandler(square);
      return;
    }
    event.preventDefault();
    this.drag = { square, x: event.clientX, y: event.clientY, ghost: null, pointer: event.pointerId };
    this.grid.setPointerCapture(event.pointerId);
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.ghost) {
      const far = Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > DRAG_THRESHOLD_PX;
      if (!far || !this.movesFrom(drag.square).length) return;
      const piece = this.cells.get(drag.square).querySelector('.piece');
      if (!piece) return;
      drag.ghost = piece.cloneNode(true);
      drag.ghost.removeAttribute('data-piece'); // the ghost is not a piece on the board
      drag.ghost.classList.add('ghost');
      const size = this.cells.get(drag.square).getBoundingClientRect().width;
      drag.ghost.style.width = drag.ghost.style.height = `${size}px`;
      document.body.appendChild(drag.ghost);
      piece.classList.add('lifted');
      this.select(drag.square);
    }
    const size = parseFloat(drag.ghost.style.width);
    drag.ghost.style.left = `${event.clientX - size / 2}px`;
    drag.ghost.style.top = `${event.clientY - size / 2}px`;
    const over = this.squareOf(document.elementFromPoint(event.clientX, event.clientY));
    this.hover(over);
  }

  pointerUp(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    this.drag = null;
    if (!drag.ghost) {
      this.click(drag.square);
      return;
    }
    drag.ghost.remove();
    this.cells.get(drag.square)?.querySelector('.piece')?.classList.remove('lifted');
    const over = this.squareOf(document.elementFromPoint(event.clientX, event.clientY));
    if (over !== null && this.movesFrom(drag.square).some((m) => m.to === over)) {
      this.attempt(drag.square, over, event.clientX, event.clientY);
    }
  }

  cancelDrag() {
    if (this.drag?.ghost) {
      this.drag.ghost.remove();
      this.cells.get(this.drag.square)?.querySelector('.piece')?.classList.remove('lifted');
    }
    this.drag = null;
  }

  // Origin then destination; clicking another of one's own pieces switches the selection.
  // A capture may end on its own origin, so a second click on the origin can also be a move.
  click(square) {
    const selected = this.selected;
    const options = selected === null ? [] : this.movesFrom(selected);
    if (options.some((m) => m.to === square)) {
      const rect = this.cells.get(square).getBoundingClientRect();
      this.attempt(selected, square, rect.right, rect.top);
      return;
    }
    if (square !== selected && this.movesFrom(square).length) {
      this.select(square);
    } else {
      this.select(null);
    }
  }

  attempt(from, to, x, y) {
    const candidates = this.movesFrom(from).filter((m) => m.to === to);
    if (candidates.length === 1) {
      this.select(null);
      this.onMove(candidates[0]);
    } else if (candidates.length > 1) {
      this.showChooser(candidates, x, y);
    }
  }

  describe(move) {
    const route = (move.routes && move.routes[0]) || [move.from, move.to];
    const path = route.map((sq) => this.label(sq)).join('x');
    const taken = [...move.captured].sort((a, b) => a - b).map((sq) => this.label(sq)).join(', ');
    return { path, taken };
  }

  // Two legal moves with the same origin and destination differ by what they take: list them.
  showChooser(moves, x, y) {
    const chooser = this.chooser;
    chooser.innerHTML = '<div class="chooser-title">Which capture?</div>';
    for (const move of moves) {
      const { path, taken } = this.describe(move);
      const button = document.createElement('button');
      button.dataset.move = move.hub;
      button.innerHTML = `<span class="chooser-path">${path}</span><span class="chooser-taken">takes ${taken}</span>`;
      button.addEventListener('mouseenter', () => this.previewCapture(move));
      button.addEventListener('click', () => {
        this.hideChooser();
        this.select(null);
        this.onMove(move);
      });
      chooser.appendChild(button);
    }
    chooser.hidden = false;
    const width = chooser.offsetWidth;
    const height = chooser.offsetHeight;
    chooser.style.left = `${Math.max(4, Math.min(window.innerWidth - width - 4, x + 8)) + window.scrollX}px`;
    chooser.style.top = `${Math.max(4, Math.min(window.innerHeight - height - 4, y)) + window.scrollY}px`;
    this.previewCapture(moves[0]);
  }

  previewCapture(move) {
    this.routeLayer.innerHTML = '';
    for (const route of move.routes || [[move.from, move.to]]) {
      this.routeLayer.appendChild(this.polyline(route, 'route strong'));
    }
    for (const [number, cell] of this.cells) cell.classList.toggle('taken', move.captured.includes(number));
  }

  hideChooser() {
    if (this.chooser.hidden) return;
    this.chooser.hidden = true;
    this.chooser.innerHTML = '';
    this.refresh();
  }
}
