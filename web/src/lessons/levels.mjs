// @ts-check
// A lesson as levels: its sections in page order, each with the Try it
// exercises (<dlq-exercise>) in it. Read from the lesson page itself (the
// document in view, or one fetched and parsed by the home page), so the map and
// the home page's "n of m" can never disagree with the lesson: there is no
// second list to keep up to date.

/**
 * The key progress keeps an exercise under: its playground's id (`for`), with
 * "#2", "#3", … for a second and later exercise on the same playground.
 * `exercises` is every <dlq-exercise> of the page, in order.
 */
export function exerciseKey(exercise, exercises) {
  const target = exercise.getAttribute('for') ?? '';
  const same = exercises.filter((e) => (e.getAttribute('for') ?? '') === target);
  const n = same.indexOf(exercise);
  return n > 0 ? `${target}#${n + 1}` : target;
}

/**
 * The levels of a lesson document: [{ id, title, section, exercises: [{ key, goal, element }] }]
 * for every top-level <section> of its <main> that has a heading (h2) with an id.
 */
export function levelsOf(doc) {
  const exercises = [...doc.querySelectorAll('dlq-exercise')];
  return [...doc.querySelectorAll('main > section')].flatMap((section) => {
    const heading = section.querySelector(':scope > h2[id]');
    if (!heading) return [];
    return [{
      id: heading.id,
      title: heading.textContent.replace(/\s+/g, ' ').trim(),
      section,
      exercises: [...section.querySelectorAll('dlq-exercise')].map((element) => ({
        key: exerciseKey(element, exercises), goal: element.getAttribute('goal') ?? '', element,
      })),
    }];
  });
}

/** { done, total } exercises of `levels` that `solved` (a Map or Set of keys) holds. */
export function tally(levels, solved) {
  const keys = levels.flatMap((level) => level.exercises.map((e) => e.key));
  return { done: keys.filter((k) => solved.has(k)).length, total: keys.length };
}
