// @ts-check
// <dlq-predict for="<playground id>" [run="<link>"] [order="<id> <id> …"]>
//   <details class="predict"><summary>Predict: …?</summary>
//     <ul class="predict-choices"><li data-goal="<goal>">An answer</li> …</ul>
//     <p>Why (shown once the learner has answered).</p>
//   </details>
// </dlq-predict>
//
// A predict question that takes the learner's answer before it reveals
// anything: a choice (each choice a goal, docs/goals.md), or with `order` the
// order in which those jobs complete, typed or picked. Check plays the scenario
// in the core — `run`, else the playground's own `scenario` — to the end of its
// script (a world's run played by the core too) and asks the core which
// choice's goal holds there, or in what order the jobs completed. So the right
// answer is the core's, never written in the page: the page says right or
// wrong, the right answer, the author's why, and what the core's run shows.
// An author's question with no or several true choices is refused, by name.
//
// Until the answer is in, nothing that answers the question is drawn: connected,
// the element sets future="hidden" on its playground (read when it mounts), so
// the playground withholds the script past the cursor and every card that
// foretells the run (view.mjs foretelling); the Try it boxes on that playground
// withhold their goal's clauses (unansweredPredictFor). The answer shows them
// again (controller.showFuture, and the 'dlq-predict' event). The answer is kept
// with the lesson's progress (progress.mjs): a reload shows it, judged again by
// the core; Reset progress asks the question again. Without JavaScript the
// <details> stays as it is: the question, the choices and the why behind a click.
import { h, uid } from '../shared/dom.mjs';
import { quoted } from '../shared/quote.mjs';
import { coreChoice, coreOrder, orderProblem, parseOrder } from './predict-answer.mjs';
import { answersOn, markAnswered, pageKey } from './progress.mjs';
import { exerciseKey } from './levels.mjs';

const loadLab = () => import('../../wasm/index.mjs').then((m) => m.loadLab());

/** True while a predict question about playground `id` on `doc` waits for its answer. */
export function unansweredPredictFor(doc, id) {
  return [...doc.querySelectorAll('dlq-predict')].some((p) => p.getAttribute('for') === id && p.answered === false);
}

/**
 * A built question's parts; `order` (the order box) only when it asks for an order.
 * @typedef {{ link: string, choices: { goal: string, input: HTMLInputElement, label: HTMLElement, text: () => string }[],
 *   orderIds: string[] | null, why: HTMLElement, check: HTMLElement, problem: HTMLElement, result: HTMLElement,
 *   shows: HTMLElement, order?: HTMLInputElement, fieldset?: HTMLElement }} PredictUi
 */

export class DlqPredictElement extends HTMLElement {
  #built = false;
  #answered = false;
  /** @type {PredictUi | null} */
  #ui = null;
  #page = '';
  #key = '';
  #kept = undefined;  // the answer kept from an earlier visit, shown once built

  connectedCallback() {
    if (!this.#built) {
      // An answer kept from an earlier visit: the question is answered before anything is drawn.
      const doc = this.ownerDocument;
      this.#page = pageKey(doc.location?.href ?? doc.baseURI);
      this.#key = exerciseKey(this, [...doc.querySelectorAll('dlq-predict')]);
      this.#kept = answersOn(this.#page).get(this.#key);
      if (this.#kept !== undefined) this.#answered = true;
    }
    const target = this.#target();
    // Before the playground mounts (it reads the attribute then): nothing of its future is drawn.
    if (target && !this.#answered && !target.hasAttribute('future')) target.setAttribute('future', 'hidden');
    if (this.#built) return;
    this.#built = true;
    try {
      this.#build();
    } catch (error) {
      this.append(h('p', { class: 'dlq-fatal', role: 'alert' }, `This predict question could not start: ${error.message}.`));
    }
  }

  /**
   * The <dlq-playground> named by `for`, or null (a question may stand alone with `run`).
   * @returns {import('../playground/element.mjs').DlqPlaygroundElement | null}
   */
  #target() {
    const id = this.getAttribute('for');
    const el = id ? this.ownerDocument.getElementById(id) : null;
    return el?.localName === 'dlq-playground' ? /** @type {import('../playground/element.mjs').DlqPlaygroundElement} */ (el) : null;
  }

  /** True once the learner's answer is in (now, or kept from an earlier visit). */
  get answered() { return this.#answered; }

  #build() {
    const details = this.querySelector(':scope > details.predict');
    if (!details) throw new Error('expected a <details class="predict"> inside');
    const summary = details.querySelector(':scope > summary');
    const list = details.querySelector(':scope > .predict-choices');
    const orderIds = this.hasAttribute('order') ? parseOrder(this.getAttribute('order')) : null;
    if (orderIds === null && !list) throw new Error('expected a .predict-choices list, or an order attribute');
    if (orderIds !== null && orderIds.length < 2) {
      throw new Error(`order: expected two or more job ids, got ${quoted(this.getAttribute('order'))}`);
    }
    const link = this.getAttribute('run') ?? this.#target()?.getAttribute('scenario');
    if (!link) throw new Error('expected a run attribute, or for naming a <dlq-playground> with a scenario');
    const id = uid('dlq-pr');
    const why = h('div', { class: 'predict-why', hidden: true });
    why.append(...[...details.childNodes].filter((n) => n !== summary && n !== list));
    const choices = list ? [.../** @type {NodeListOf<HTMLLIElement>} */ (list.querySelectorAll(':scope > li'))].map((li, i) => {
      const goal = li.dataset.goal;
      if (!goal) throw new Error(`choice ${i + 1}: expected a data-goal`);
      const input = h('input', { type: 'radio', name: `${id}-c`, id: `${id}-c${i}`, value: String(i) });
      const label = h('label', { for: input.id, class: 'predict-choice' }, input, h('span', {}, ...li.childNodes));
      return { goal, input, label, text: () => label.textContent.trim() };
    }) : [];
    /** @type {PredictUi} */
    const ui = this.#ui = {
      link, choices, orderIds, why,
      check: h('button', { type: 'button', class: 'dlq-btn predict-check' }, 'Check my answer'),
      problem: h('p', { class: 'dlq-field-error', role: 'alert', hidden: true }),
      result: h('p', { class: 'predict-result', role: 'status' }),
      shows: h('p', { class: 'predict-shows', hidden: true }),
    };
    const fieldset = h('fieldset', { class: 'predict-form' }, h('legend', {}, ...summary.childNodes));
    if (orderIds !== null) {
      ui.order = h('input', { type: 'text', id: `${id}-order`, class: 'dlq-input predict-order', autocomplete: 'off',
        spellcheck: 'false', 'aria-describedby': `${id}-order-hint` });
      const pick = (jobId) => {
        const now = parseOrder(ui.order.value);
        if (!now.includes(jobId)) ui.order.value = [...now, jobId].join(', ');
        ui.order.focus();
      };
      fieldset.append(
        h('label', { for: ui.order.id, class: 'dlq-label' }, 'Completion order, first to last'), ui.order,
        h('p', { class: 'dlq-hint', id: `${id}-order-hint` }, `Type the ids (${orderIds.join(', ')}) or pick them in order:`),
        h('div', { class: 'dlq-buttons', role: 'group', 'aria-label': 'Pick the jobs in order' },
          orderIds.map((jobId) => h('button', { type: 'button', class: 'dlq-btn', onclick: () => pick(jobId) }, jobId)),
          h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', onclick: () => { ui.order.value = ''; ui.order.focus(); } }, 'Clear')));
      ui.order.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.#check(); });
    } else {
      fieldset.append(h('div', { class: 'predict-choices' }, choices.map((c) => c.label)));
    }
    ui.check.addEventListener('click', () => this.#check());
    fieldset.append(h('div', { class: 'dlq-buttons' }, ui.check), ui.problem);
    ui.fieldset = fieldset;
    details.replaceWith(h('div', { class: 'predict is-live' }, fieldset, ui.result, ui.shows, why));
    this.#target()?.addEventListener('dlq-mount', () => this.#applyFuture());
    this.ownerDocument.addEventListener('dlq-progress-reset', (e) => {
      if (e.detail?.page === this.#page) this.#askAgain();
    });
    if (this.#kept !== undefined) this.#restore(this.#kept);
  }

  /** Shows the answer kept from an earlier visit, judged again by the core; one no longer valid is dropped. */
  #restore(answer) {
    const ui = this.#ui;
    if (ui.orderIds !== null) {
      if (!Array.isArray(answer) || orderProblem(answer, ui.orderIds) !== null) { this.#askAgain(); return; }
      ui.order.value = answer.join(', ');
    } else {
      const choice = ui.choices[answer];
      if (!Number.isInteger(answer) || !choice) { this.#askAgain(); return; }
      choice.input.checked = true;
    }
    this.#reveal(answer, { kept: true });
  }

  /** The question asked afresh (Reset progress): no answer, nothing of the future drawn. */
  #askAgain() {
    const ui = this.#ui;
    this.#answered = false;
    this.classList.remove('is-answered', 'is-right');
    for (const c of ui.choices) {
      c.input.disabled = false;
      c.input.checked = false;
      c.label.classList.remove('is-answer');
    }
    if (ui.order) {
      ui.order.readOnly = false;
      ui.order.value = '';
    }
    ui.check.hidden = false;
    ui.result.textContent = '';
    ui.shows.textContent = '';
    ui.shows.hidden = true;
    ui.why.hidden = true;
    this.#target()?.setAttribute('future', 'hidden');  // read if the playground mounts only now
    this.#applyFuture();
    this.dispatchEvent(new CustomEvent('dlq-predict', { bubbles: true, detail: { for: this.getAttribute('for'), answered: false } }));
  }

  /** The playground's future: hidden until the answer is in. */
  #applyFuture() {
    this.#target()?.controller?.showFuture(this.#answered);
  }

  async #check() {
    const ui = this.#ui;
    if (this.#answered) return;
    let answer;
    if (ui.orderIds !== null) {
      answer = parseOrder(ui.order.value);
      const problem = orderProblem(answer, ui.orderIds);
      ui.problem.textContent = problem ?? '';
      ui.problem.hidden = problem === null;
      if (problem !== null) return;
    } else {
      answer = ui.choices.findIndex((c) => c.input.checked);
      ui.problem.textContent = answer < 0 ? 'Pick an answer first: the reveal comes after it.' : '';
      ui.problem.hidden = answer >= 0;
      if (answer < 0) return;
    }
    await this.#reveal(answer);
  }

  /** Judges `answer` in the core and reveals; kept with the progress unless it was (`kept`). */
  async #reveal(answer, { kept = false } = {}) {
    const ui = this.#ui;
    let verdict;
    try {
      const lab = await loadLab();
      verdict = this.#judge(lab, answer);
    } catch (error) {
      if (kept) this.#askAgain();  // a kept answer the core cannot judge now: asked afresh
      ui.problem.textContent = `This question could not be checked: ${error.message}.`;
      ui.problem.hidden = false;
      return;
    }
    this.#answered = true;
    if (!kept) markAnswered(this.#page, this.#key, answer);
    this.classList.add('is-answered');
    this.classList.toggle('is-right', verdict.right);
    for (const c of ui.choices) {
      c.input.disabled = true;
      c.label.classList.toggle('is-answer', c === ui.choices[verdict.index]);
    }
    if (ui.order) ui.order.readOnly = true;
    ui.check.hidden = true;
    ui.result.textContent = `${kept ? 'Answered on an earlier visit. ' : ''}${verdict.right ? '✓ Right.' : '✗ Not quite.'} The answer: ${verdict.answer}.`;
    ui.shows.textContent = `What the core’s run shows: ${verdict.shows}.`;
    ui.shows.hidden = false;
    ui.why.hidden = false;
    this.#applyFuture();
    this.dispatchEvent(new CustomEvent('dlq-predict', { bubbles: true, detail: { for: this.getAttribute('for'), answered: true, right: verdict.right } }));
  }

  /** Right or wrong, the right answer in words and what the core's run shows. */
  #judge(lab, answer) {
    const ui = this.#ui;
    if (ui.orderIds === null) {
      const { index, shows } = coreChoice(lab, ui.link, ui.choices.map((c) => c.goal));
      return { right: answer === index, index, answer: ui.choices[index].text().replace(/\.$/, ''), shows: shows.join('; ') };
    }
    const { right, order, shows } = coreOrder(lab, ui.link, ui.orderIds, answer);
    return { right, index: -1, answer: order.join(', then ') || 'none of them completes', shows };
  }
}
