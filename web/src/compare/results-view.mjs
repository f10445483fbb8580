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

  /**
   * `results`: CompareModel.play()'s, one per column; `sentences`: diffSentences()'s.
   * A refused column is named in the diff too, so a reader sees why it is not compared.
   */
  render(results, sentences) {
    const items = sentences.map(({ id, text }) => h('li', { 'data-job': id }, text));
    for (const r of results.filter((x) => x.error)) {
      items.push(h('li', { class: 'is-refused', 'data-column': r.label }, `${r.label} is not compared: the core refuses it (${r.error.code}).`));
    }
    const played = results.length - results.filter((x) => x.error).length;
    if (played < 2) {
      items.push(h('li', { class: 'is-same' }, 'Fewer than two columns played: there is nothing to compare.'));
    } else if (sentences.length === 0) {
      items.push(h('li', { class: 'is-same' }, 'Every job ends in the same place, after the same deliveries, at the same time in every played column.'));
    }
    this.#diff.replaceChildren(...items);
    this.#chart.render(results);
  }
}
