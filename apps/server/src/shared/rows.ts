/**
 * `{ ...base, ...more }` for an object made for this answer alone (a presented row, a row just
 * read): `more`'s keys are added to `base` itself. A spread followed by more keys makes V8 copy
 * the object into a slow (dictionary) one, which then costs about five times as much to present and
 * to serialise: ≈ 5 µs a row of an operator's list (docs/performance.md, fifth round).
 */
export const extend = <T extends object, U extends object>(base: T, more: U): T & U => Object.assign(base, more);
