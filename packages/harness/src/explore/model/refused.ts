// What the model does not send: a request its engines cannot take as sent.

/** A request the model's engines cannot take as sent (the reference would answer -32602): not sent. */
export class ModelRefusedRequest extends Error {}
