// @ts-check
// What the compare page shows: the refusal of a fragment it could not read
// (#cmp-refusal), the short diff (#cmp-diff, one sentence per job that ends
// differently) and the columns' timelines (chart-view.mjs). Draws only.
import { h, alertText } from '../shared/dom.mjs';
import { ChartView } from './chart-view.mjs';

export class ResultsView {
  #refusal;
  #diff;
  #chart;

  constructor(doc) {
    this.#refusal = doc.getElementById('cmp-refusal');
    this.#diff = doc.getElementById('cmp-diff');
    this.#chart = new ChartView(doc.getElementById('cmp-chart'));
  }

  /** A refusal of the fragment, by name (null clears it). What is on show stays. */
  showRefusal(message) {
    alertText(this.#refusal, message);
  }

  /** Nothing on show: the diff and the columns are emptied (the form's refusal says why). */
  clear() {
    this.#diff.replaceChildren();
    this.#chart.clear();
  }

  /**
   * `results`: CompareModel.play()'s, one per column; `sentences`: diffSentences()'s;
   * `toEnd`: null, or { ids, hash }: the jobs still in flight at the script's end and the
   * fragment of the same comparison played to its end.
   * A refused column is named in the diff too, so a reader sees why it is not compared.
   */
  render(results, sentences, toEnd = null) {
    const items = sentences.map(({ id, text }) => h('li', { 'data-job': id }, text));
    for (const r of results.filter((x) => x.error)) {
      items.push(h('li', { class: 'is-refused', 'data-column': r.label }, `${r.label} is not compared: the core refuses it (${r.error.code}).`));
    }
    const played = results.length - results.filter((x) => x.error).length;
    if (played < 2) {
      items.push(h('li', { class: 'is-same' }, 'Fewer than two columns played: there is nothing to compare.'));
    } else if (sentences.length === 0) {
      items.push(h('li', { class: 'is-same' }, 'Every job plays the same in every played column: the same events at the same times, '
        + 'ending in the same place after the same deliveries.'));
    }
    if (toEnd !== null) {
      const jobs = toEnd.ids.map((id) => `“${id}”`).join(', ');
      items.push(h('li', { class: 'is-unsettled', 'data-jobs': toEnd.ids.join(' ') },
        `The script ends before ${jobs} ${toEnd.ids.length === 1 ? 'settles' : 'settle'}: what each column does with `
        + `${toEnd.ids.length === 1 ? 'its' : 'their'} next deliveries is not played. `,
        h('a', { class: 'cmp-to-end', href: `#${toEnd.hash}` }, 'Compare it played to its end'),
        ` (${toEnd.ids.length === 1 ? 'the job fails' : 'they fail'} every time; the world plays the jobs out).`));
    }
    this.#diff.replaceChildren(...items);
    this.#chart.render(results);
  }
}
