// @ts-check
// A legend's words for the requeue glyph, in the core's own words: where the
// core sent a requeued attempt, as its explanation ends ("… → requeue at the
// tail" in the lab's mode, "… → back near the head, as a quorum queue returns
// it" in rabbitmq-quorum's). The playground's legend and the compare page's use
// it, so the two say the same; no rule of where a requeue goes lives here.

/** The latest attempt the core requeued in `events`, or undefined. */
export function latestRequeue(events) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].disposition === 'requeued') return events[i];
  return undefined;
}

/** "Requeued: requeue at the tail" from a requeued attempt's explanation; plain "Requeued" without one. */
export function requeueWords(attempt) {
  const text = attempt?.explanation ?? '';
  const at = text.lastIndexOf('→ ');
  return at < 0 ? 'Requeued' : `Requeued: ${text.slice(at + 2)}`;
}
