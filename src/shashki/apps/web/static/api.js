// Talking to the server: JSON requests, and the analysis stream.

export class ApiError extends Error {
  constructor(status, body) {
    super(body.error || `the server answered ${status}`);
    this.status = status;
    this.expected = body.expected || "";
  }
}

export async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, { error: "the server cannot be reached (is shashki serve running?)" });
  }
  let data;
  try {
    data = await response.json();
  } catch (error) {
    data = { error: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// The engine's analysis of a game's shown position: `on[kind](data)` for each event
// (position, egdb, info, done); returns a function that stops it.
export function analyse(gameId, seconds, on) {
  const source = new EventSource(`/api/games/${gameId}/analysis?seconds=${seconds}`);
  let closed = false;
  const close = () => {
    closed = true;
    source.close();
  };
  for (const kind of ["position", "egdb", "info"]) {
    source.addEventListener(kind, (event) => on[kind] && on[kind](JSON.parse(event.data)));
  }
  source.addEventListener("done", (event) => {
    close(); // an event stream reopens by itself when it ends: this one is over
    on.done && on.done(JSON.parse(event.data));
  });
  source.onerror = () => {
    if (!closed) {
      close();
      on.done && on.done({ reason: "error" });
    }
  };
  return close;
}
