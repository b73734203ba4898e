// Every error the library rejects or throws is a PredmarketError.
export class PredmarketError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "PredmarketError";
  }
}

// An aborted call, named as code checking `err.name === "AbortError"` expects.
export class PredmarketAbortError extends PredmarketError {
  constructor(message = "the request was aborted", options) {
    super(message, options);
    this.name = "AbortError";
    this.code = "ABORTED";
  }
}
