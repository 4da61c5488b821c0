/** An error the background answers with its own code and a message written for the user. */
export class CodedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CodedError';
  }
}

/** An error a message handler answers with (its code reaches the view). */
export class HandlerError extends CodedError {
  override name = 'HandlerError';
}
