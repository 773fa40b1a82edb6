// Entering a move square by square.  The server sends every legal move with its full route
// (`path`: the origin, then each square the piece lands on); a click selects a piece, then
// each click on a landing square narrows the moves down to those whose route goes that way,
// until one is left.  A click on the end square of exactly one route plays it at once, so a
// quiet move or an unambiguous capture takes two clicks, and a capture with several routes
// to one square takes a click on each square where they part.

const startsWith = (path, route) => route.every((square, i) => path[i] === square);

export class MovePicker {
  constructor(legal) {
    this.legal = legal;
    this.route = [];
  }

  reset() {
    this.route = [];
  }

  get selected() {
    return this.route.length ? this.route[0] : null;
  }

  // the moves still possible with the squares clicked so far
  candidates() {
    return this.route.length ? this.legal.filter((m) => startsWith(m.path, this.route)) : [];
  }

  movable(square) {
    return this.legal.some((m) => m.from === square);
  }

  // squares to mark: the next landing square of each candidate (`steps`) and the squares
  // where one candidate alone ends (`ends`)
  targets() {
    const moves = this.candidates();
    const steps = new Set();
    const endCount = new Map();
    for (const m of moves) {
      if (m.path.length > this.route.length) steps.add(m.path[this.route.length]);
      endCount.set(m.to, (endCount.get(m.to) || 0) + 1);
    }
    const ends = new Set([...endCount].filter(([, n]) => n === 1).map(([s]) => s));
    return { steps, ends };
  }

  // A click on `square`: returns {kind, move?, moves?} where kind is
  //  "select" (a piece that can move), "step" (a landing square; more to choose),
  //  "move" (move is complete), "ambiguous" (moves: several routes end there),
  //  "deselect", or "illegal" (nothing here; the selection is dropped).
  click(square) {
    if (!this.route.length) {
      if (this.movable(square)) {
        this.route = [square];
        return { kind: "select" };
      }
      return { kind: "illegal" };
    }
    const moves = this.candidates();
    const step = moves.filter((m) => m.path[this.route.length] === square);
    if (step.length) {
      const route = [...this.route, square];
      const complete = step.filter((m) => m.path.length === route.length);
      if (step.length === 1 || complete.length === 1) {
        this.reset();
        return { kind: "move", move: step.length === 1 ? step[0] : complete[0] };
      }
      this.route = route;
      return { kind: "step" };
    }
    const ending = moves.filter((m) => m.to === square);
    if (ending.length === 1) {
      this.reset();
      return { kind: "move", move: ending[0] };
    }
    if (ending.length > 1) return { kind: "ambiguous", moves: ending };
    if (square === this.route[0] && this.route.length === 1) {
      this.reset();
      return { kind: "deselect" };
    }
    if (this.movable(square)) {
      this.route = [square];
      return { kind: "select" };
    }
    this.reset();
    return { kind: "illegal" };
  }
}
