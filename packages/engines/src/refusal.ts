// The one refusal of the engines: every engine that can refuse answers `{ ok: false, code,
// message }` with the detail its page names beside them. The reference implementation throws it
// as the protocol's `Refusal` (code and detail in `data`); nothing else formats it.

/**
 * A refusal: nothing was done. `code` is the spec's code, `message` says what is wrong and what to
 * do next, and `Detail` holds what the page adds (the fence read, the path, the counted state...).
 *
 * @example
 * const r: EngineRefusal<'TURN_NOT_STARTED'> = refusal('TURN_NOT_STARTED', 'no turn has started.');
 */
export type EngineRefusal<Code extends string = string, Detail extends object = Record<never, never>> = {
  /** Always `false`. */
  readonly ok: false;
  /** The spec's code. */
  readonly code: Code;
  /** What is wrong and what to do next. */
  readonly message: string;
} & Readonly<Detail>;

/** An {@link EngineRefusal} of `code`, with `detail` beside the code and the message. */
export function refusal<Code extends string, Detail extends object = Record<never, never>>(
  code: Code,
  message: string,
  detail?: Detail,
): EngineRefusal<Code, Detail> {
  return { ok: false, code, message, ...detail } as EngineRefusal<Code, Detail>;
}
