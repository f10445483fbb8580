// @ts-check
// What of the session's timeline a playground draws. Normally all of it: the
// script past the cursor faint, "later in the script". A predict question's
// playground draws only what has happened, so the answer is not on show before
// the learner gives it (options.future 'hidden', controller.showFuture()).

/**
 * The events to hand the timeline and the first index that changed since the
 * last draw: `view` is the session's view, `shown` whether the future is drawn,
 * `drawn` how many events the last draw handed over. A shorter list than the
 * last one is a change from its end, so the timeline drops what is past it.
 */
export function shownEvents(view, shown, drawn) {
  const events = shown ? view.timeline : view.timeline.slice(0, view.eventsAtCursor);
  return { events, from: Math.min(view.eventsFrom, drawn, events.length) };
}
