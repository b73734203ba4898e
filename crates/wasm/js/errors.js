// @ts-check
// Every error the library rejects or throws is a PredmarketError.
export class PredmarketError extends Error {
  /**
   * @param {string} [message]
   * @param {ErrorOptions} [options]
   */
  constructor(message, options) {
    super(message, options);
    this.name = "PredmarketError";
  }
}

// An aborted call, named as code checking `err.name === "AbortError"` expects.
export class PredmarketAbortError extends PredmarketError {
  /**
   * @param {string} [message]
   * @param {ErrorOptions} [options]
   */
  constructor(message = "the request was aborted", options) {
    super(message, options);
    this.name = "AbortError";
    this.code = "ABORTED";
  }
}
