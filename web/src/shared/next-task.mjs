// @ts-check
// A pause between steps of work: the main thread is free in between, so a start-up made of
// steps is a row of short tasks rather than one long one (input is answered in the gaps).

/** Resolves in a later task (a setTimeout 0). */
export const nextTask = () => new Promise((resolve) => { setTimeout(resolve, 0); });
