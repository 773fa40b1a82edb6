// The board, drawn as SVG in the page: squares, pieces, the last move, the squares a piece
// may go to, and input by click or drag.  Where each square goes comes from the server
// (`cells`, the layout of shashki.svg), so every game's board (italian mirrored, 10x10) is
// drawn by the same code, in the colours of shashki.svg.

const NS = "http://www.w3.org/2000/svg";
const MARGIN = 0.42; // the frame with the coordinates, in squares
const LETTERS = "abcdefghijklmnop";
// the crown of a king, in squares from the piece's centre (shashki.svg's, scaled)
const CROWN = [[-9.5, 6.5], [-11, -6.5], [-5, -1], [0, -10], [5, -1], [11, -6.5], [9.5, 6.5]]
  .map(([x, y]) => [x / 45, y / 45]);

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class BoardView {
  // `onPress(square)` is called when a square is pressed (pointer down; null for a light
  // square or the frame), and
  // `onRelease(pressed, square, moved)` when the pointer is let go (on `square`, or null off
  // the board; `moved`: a piece was dragged); `canDrag(square)` says whether the piece there
  // may be dragged
  constructor(container, colors, handlers) {
    this.container = container;
    this.colors = colors;
    this.handlers = handlers;
    this.flipped = false;
    this.svg = el("svg", { class: "board", role: "img" });
    container.replaceChildren(this.svg);
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("pointercancel", () => this.endDrag());
    this.svg.addEventListener("contextmenu", (e) => e.preventDefault());
    this.drag = null;
  }

  // a new game's board (its `variant` record from /api/variants)
  setVariant(variant) {
    this.variant = variant;
    this.state = null; // a position of another game
    this.layout();
  }

  setFlipped(flipped) {
    this.flipped = flipped;
    this.layout();
  }

  // column and row on screen of a square
  cell(square) {
    const [column, row] = this.variant.cells[square];
    const last = this.variant.size - 1;
    return this.flipped ? [last - column, last - row] : [column, row];
  }

  center(square) {
    const [x, y] = this.cell(square);
    return [x + 0.5, y + 0.5];
  }

  layout() {
    const v = this.variant;
    if (!v) return;
    const size = v.size;
    const c = this.colors;
    this.svg.replaceChildren();
    this.svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${size + 2 * MARGIN} ${size + 2 * MARGIN}`);
    this.svg.setAttribute("aria-label", `${v.title} board`);
    el("rect", { x: -MARGIN, y: -MARGIN, width: size + 2 * MARGIN, height: size + 2 * MARGIN,
      fill: c.margin, rx: 0.12 }, this.svg);
    el("rect", { x: 0, y: 0, width: size, height: size, fill: c["square light"] }, this.svg);
    this.squares = el("g", { class: "squares" }, this.svg);
    this.marks = el("g", { class: "marks" }, this.svg);
    this.labels = el("g", { class: "labels" }, this.svg);
    this.pieceLayer = el("g", { class: "pieces" }, this.svg);
    // the numbers of the numeric games, over the pieces, as shashki.svg draws them
    this.numbers = el("g", { class: "labels numbers" }, this.svg);
    this.targetLayer = el("g", { class: "targets" }, this.svg);
    this.arrowLayer = el("g", { class: "arrows" }, this.svg);
    this.squareNodes = v.names.map((name, square) => {
      const [x, y] = this.cell(square);
      return el("rect", { class: "square", x, y, width: 1, height: 1, fill: c["square dark"],
        "data-square": square, "data-name": name }, this.squares);
    });
    const font = "Helvetica, Arial, sans-serif";
    if (v.numeric) {
      v.names.forEach((name, square) => {
        const [x, y] = this.cell(square);
        el("text", { x: x + 0.05, y: y + 0.22, "font-size": 0.2, "font-family": font,
          fill: c["square number"] }, this.numbers).textContent = name;
      });
    } else {
      const last = size - 1;
      for (let i = 0; i < size; i++) {
        // the letter and rank of a column and a row, from White's side unless flipped
        const file = LETTERS[this.flipped ? last - i : i];
        const rank = this.flipped ? i + 1 : size - i;
        el("text", { x: i + 0.5, y: size + MARGIN * 0.78, "font-size": 0.3,
          "font-family": font, "font-weight": "bold", "text-anchor": "middle",
          fill: c.coord }, this.labels).textContent = file;
        el("text", { x: -MARGIN / 2, y: i + 0.6, "font-size": 0.3, "font-family": font,
          "font-weight": "bold", "text-anchor": "middle", fill: c.coord },
        this.labels).textContent = rank;
      }
    }
    if (this.state) this.draw(this.state);
  }

  // draw a position: {pieces, last, selected, route, steps, ends, movable, best}
  draw(state) {
    this.state = state;
    const c = this.colors;
    this.marks.replaceChildren();
    this.pieceLayer.replaceChildren();
    this.targetLayer.replaceChildren();
    this.arrowLayer.replaceChildren();
    const tint = (square, color, opacity, cls) => {
      const [x, y] = this.cell(square);
      el("rect", { x, y, width: 1, height: 1, fill: color, "fill-opacity": opacity, class: cls },
        this.marks);
    };
    const last = state.last;
    if (last) {
      for (const s of last.path.slice(1, -1)) {
        if (s !== last.from && s !== last.to) tint(s, c["lastmove path"], 0.55, "last-path");
      }
      for (const s of last.captured) tint(s, c.captured, 0.45, "last-captured");
      for (const s of new Set([last.from, last.to])) tint(s, c.lastmove, 0.8, "last-move");
    }
    if (state.selected !== null && state.selected !== undefined) {
      tint(state.selected, "#14551e", 0.5, "selected");
    }
    this.pieces = new Map();
    for (const piece of state.pieces) this.pieces.set(piece.square, this.drawPiece(piece));
    if (last && last.captured.length) {
      const points = last.path.map((s) => this.center(s).join(",")).join(" ");
      el("polyline", { points, fill: "none", stroke: c.captured, "stroke-width": 0.055,
        "stroke-opacity": 0.8, "stroke-dasharray": "0.13,0.09", "stroke-linejoin": "round",
        class: "last-route" }, this.marks);
      for (const s of last.captured) this.cross(s, this.marks);
    }
    if (state.route && state.route.length > 1) {
      const points = state.route.map((s) => this.center(s).join(",")).join(" ");
      el("polyline", { points, fill: "none", stroke: "#14551e", "stroke-width": 0.08,
        "stroke-opacity": 0.7, "stroke-linejoin": "round", "stroke-linecap": "round" },
      this.targetLayer);
    }
    for (const s of state.steps || []) {
      const [x, y] = this.center(s);
      el("circle", { cx: x, cy: y, r: 0.17, fill: "#14551e", "fill-opacity": 0.6,
        class: "target", "data-square": s }, this.targetLayer);
    }
    for (const s of state.ends || []) {
      if (state.steps && state.steps.has(s)) continue;
      const [x, y] = this.center(s);
      el("circle", { cx: x, cy: y, r: 0.4, fill: "none", stroke: "#14551e",
        "stroke-width": 0.07, "stroke-opacity": 0.6, class: "target end", "data-square": s },
      this.targetLayer);
    }
    if (state.best) this.arrow(state.best.path, "#1f6fb2");
    // a redraw in the middle of a drag (the analysis's arrow, say) keeps the piece in hand
    const drag = this.drag;
    if (drag && drag.piece) {
      drag.piece = this.pieces.get(drag.square) || null;
      if (drag.piece && drag.moved) this.carry(drag.piece, drag.point);
    }
  }

  carry(piece, point) {
    piece.classList.add("dragging");
    piece.setAttribute("transform", `translate(${point.x} ${point.y}) scale(1.12)`);
    this.pieceLayer.appendChild(piece); // on top of the others
  }

  drawPiece(piece) {
    const c = this.colors;
    const [x, y] = this.center(piece.square);
    const name = piece.color;
    const g = el("g", { class: `piece ${name} ${piece.king ? "king" : "man"}`,
      "data-square": piece.square, transform: `translate(${x} ${y})` }, this.pieceLayer);
    el("circle", { r: 0.38, fill: c[name], stroke: c[`${name} outline`], "stroke-width": 0.045 }, g);
    el("circle", { r: 0.27, fill: "none", stroke: c[`${name} outline`], "stroke-width": 0.027 }, g);
    if (piece.king) {
      el("polygon", { points: CROWN.map((p) => p.join(",")).join(" "), fill: c.crown,
        stroke: c["crown outline"], "stroke-width": 0.03, "stroke-linejoin": "round" }, g);
    }
    return g;
  }

  cross(square, layer) {
    const [x, y] = this.center(square);
    const d = 0.18;
    el("path", { d: `M${x - d},${y - d} L${x + d},${y + d} M${x - d},${y + d} L${x + d},${y - d}`,
      stroke: this.colors.captured, "stroke-width": 0.07, "stroke-linecap": "round",
      class: "last-cross" }, layer);
  }

  // an arrow along a route of squares (the engine's best move)
  arrow(path, color) {
    const points = path.map((s) => this.center(s));
    if (points.length < 2) return;
    const [x1, y1] = points[points.length - 2];
    const [x2, y2] = points[points.length - 1];
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
    const head = 0.4;
    const width = 0.24;
    const [bx, by] = [x2 - ux * head, y2 - uy * head];
    const shaft = points.slice(0, -1).concat([[bx, by]]).map((p) => p.join(",")).join(" ");
    const g = el("g", { class: "arrow", opacity: 0.75 }, this.arrowLayer);
    el("polyline", { points: shaft, fill: "none", stroke: color, "stroke-width": 0.16,
      "stroke-linecap": "round", "stroke-linejoin": "round" }, g);
    el("polygon", { points: `${x2},${y2} ${bx - uy * width},${by + ux * width} ` +
      `${bx + uy * width},${by - ux * width}`, fill: color }, g);
  }

  // --- input ------------------------------------------------------------------------------

  // the square under a pointer event, or null
  squareAt(event) {
    const point = this.svgPoint(event);
    const size = this.variant.size;
    const [column, row] = [Math.floor(point.x), Math.floor(point.y)];
    if (column < 0 || row < 0 || column >= size || row >= size) return null;
    const found = this.variant.cells.findIndex((_, s) => {
      const [x, y] = this.cell(s);
      return x === column && y === row;
    });
    return found < 0 ? null : found;
  }

  svgPoint(event) {
    const matrix = this.svg.getScreenCTM().inverse();
    return new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
  }

  pointerDown(event) {
    if (event.button !== 0 || this.drag) return;
    const square = this.squareAt(event);
    if (square === null) {
      this.handlers.onPress(null); // a light square or the frame
      return;
    }
    event.preventDefault();
    this.handlers.onPress(square);
    const piece = this.pieces && this.pieces.get(square);
    this.svg.setPointerCapture(event.pointerId);
    this.drag = { square, piece: piece && this.handlers.canDrag(square) ? piece : null,
      start: this.svgPoint(event), moved: false };
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag || !drag.piece) return;
    const point = this.svgPoint(event);
    if (!drag.moved && Math.hypot(point.x - drag.start.x, point.y - drag.start.y) < 0.15) return;
    drag.moved = true;
    drag.point = point;
    this.carry(drag.piece, point);
  }

  pointerUp(event) {
    const drag = this.drag;
    if (!drag) return;
    const square = this.squareAt(event);
    this.endDrag();
    this.handlers.onRelease(drag.square, square, drag.moved);
  }

  endDrag() {
    const drag = this.drag;
    this.drag = null;
    if (drag && drag.moved && this.state) this.draw(this.state);
  }
}
