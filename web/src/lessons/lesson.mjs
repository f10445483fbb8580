// @ts-check
// Lesson pages: two elements that work beside a <dlq-playground>.
//
// <dlq-exercise for="<playground id>" goal="<goal>" solution="<link>" [solution-crash[="<write>"]]>
//   A Try it box. Its own children are the task in words (and `.dlq-hint`
//   paragraphs, folded behind a Hint button). The goal is declarative
//   (docs/goals.md): the core parses it and checks it against the playground's
//   state after every change; the box shows ✓ once it is met and says which
//   parts hold now. "Show me" loads `solution` and plays it (with solution-crash,
//   it goes to the script's end and opens Crash and restart after that write, or
//   with no value, after the write that matters). Dispatches 'dlq-goal'
//   (bubbles; detail { goal, for, met: true }) when the goal is first met.
//   Changing `goal` later parses it again: the new clauses are checked at once,
//   or the refusal is shown in the box by name (the old clauses are dropped).
//   A playground removed and added again mounts afresh; the box binds to the new
//   one ('dlq-mount') and checks it, keeping a goal the learner already met.
//   `solution-crash` is empty or a write number from 1; anything else is refused.
//   A solve is kept in localStorage (progress.mjs), so its ✓ survives a reload,
//   with the moves it took next to the par: where the core finds Show me's run
//   first meets the goal (lab.goalPar). Both count only the solver's own moves,
//   as the core counts them (lab.learnerMoves, goalPar's moves): what the
//   simulated workers did on Run is theirs. While a predict question about the
//   same playground waits for its answer, the goal's clauses (which would answer
//   it) are withheld. A goal
//   met by Show me's own run is said, not kept. `fields` (as the playground's
//   fields option, e.g. "maxAttempts backoff.baseMs") adds a button that opens
//   and focuses those set-up fields outside Advanced.
//
// <dlq-predict for="<playground id>" …>: a predict question (predict.mjs) that
//   takes the learner's answer before the reveal; the core's run decides it.
//
// The page's table of contents becomes its lesson map (lesson-map.mjs): its
// levels (sections), each with its exercises solved, "n of m" and Reset progress.
//
// <dlq-systems for="<playground id>" systems="sqs rabbitmq …">
//   One button per real system (systems.mjs): it loads that system's defaults
//   into the playground, says in one line where the lab's rule differs, and
//   shows a configuration snippet for that system generated from the
//   playground's policy as it is now.
//
// Neither decides anything: goals are the core's, snippets only translate the
// policy the core reports. Without JavaScript both leave their own text as it is.
//
// This is the lesson pages' one script: it registers <dlq-playground> too and
// marks the page interactive (interactive.mjs). The core and the real-system
// presets are imported when an element first needs them, so prose with its
// playgrounds out of view is interactive before they are fetched.
import { defineElement } from '../playground/element.mjs';
import { markInteractive } from '../playground/interactive.mjs';
import { h, uid } from '../shared/dom.mjs';
import { nextTask } from '../shared/next-task.mjs';
import { copyText } from '../shared/clipboard.mjs';
import { quoted } from '../shared/quote.mjs';
import { exerciseKey } from './levels.mjs';
import { pageKey, markSolved, solvedOn } from './progress.mjs';
import { startLessonMap } from './lesson-map.mjs';
import { DlqPredictElement, unansweredPredictFor } from './predict.mjs';
import './copy-check.mjs';
import '../shared/skip-link.mjs';

const loadLab = () => import('../../wasm/index.mjs').then((m) => m.loadLab());

/** The <dlq-playground> named by `el`'s `for`, or an error naming the attribute. */
function targetOf(el) {
  const id = el.getAttribute('for');
  const target = id ? el.ownerDocument.getElementById(id) : null;
  if (!target || target.localName !== 'dlq-playground') {
    throw new Error(`for: expected the id of a <dlq-playground> on this page, got ${quoted(id ?? '')}`);
  }
  return target;
}

/**
 * An element beside a playground: start() runs once, on the first connection; a
 * failure (an author's bad attribute, a goal the core refuses) is said in it.
 */
class BesidePlayground extends HTMLElement {
  #started = false;

  /** Each element's own start (every subclass defines it). @returns {Promise<void>} */
  async start() {}

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    this.start().catch((error) => {
      this.append(h('p', { class: 'dlq-fatal', role: 'alert' }, `This ${this.localName.slice(4)} could not start: ${error.message}.`));
    });
  }
}

/** solution-crash: null (absent), 'matters' (empty: the write that matters) or a write number from 1. */
export function parseSolutionCrash(value) {
  if (value === null) return null;
  if (value.trim() === '') return 'matters';
  if (/^\s*[1-9][0-9]{0,8}\s*$/.test(value)) return Number(value);
  throw new Error(`solution-crash: expected nothing (the write that matters) or a write number from 1, got ${quoted(value)}`);
}

/** "1 move", "4 moves". */
const moves = (n) => `${n} ${n === 1 ? 'move' : 'moves'}`;

/**
 * The par line after a solve: the learner's moves against the core's par (null:
 * the exercise has none). A move is the learner's own action; the simulated
 * workers' actions on Run are not moves (lab.learnerMoves).
 */
export function parText(actions, par) {
  if (par === null || par === undefined) return actions === null ? '' : `Solved in ${moves(actions)}.`;
  const verdict = actions === null ? '' : actions < par ? ' Under par!' : actions === par ? ' That is par.' : '';
  const yours = actions === null ? '' : `Solved in ${moves(actions)}; `;
  const how = par === 0 ? 'Show me changes only the set-up and lets the simulated workers run'
    : `Show me’s run meets the goal after ${moves(par)}`;
  return `${yours}par is ${moves(par)} (${how}).${verdict}`;
}

export class DlqExerciseElement extends BesidePlayground {
  static observedAttributes = ['goal'];
  #reached = false;
  #helped = false;  // Show me's run is playing or has played: a goal it meets is not the learner's solve
  #ui = null;
  #target = null;
  #lab = null;
  #goal = null;  // the goal text the core accepted, or null while the attribute is refused
  #page = '';
  #key = '';
  #par = null;   // the core's par ({ actions, steps }) for the goal, or null

  /** The playground's controller now (a remounted playground has a new one), or null while it is gone. */
  get #controller() { return this.#target?.controller ?? null; }

  async start() {
    const target = targetOf(this);
    const goal = this.getAttribute('goal') ?? '';
    const crash = parseSolutionCrash(this.getAttribute('solution-crash'));  // the author's mistake, named now
    const fields = this.getAttribute('fields');
    // The core comes with the playground: a lazy one mounts when the reader comes near, and only
    // then does this page fetch the core (a phone pays for what is read). The goal is then parsed
    // first, so an author's mistake is named before anything is drawn.
    const controller = await target.ready;
    if (!controller) return;
    const lab = await loadLab();
    lab.parseGoal(goal);
    this.#target = target;
    this.#lab = lab;
    this.#goal = goal;
    this.#page = pageKey(this.ownerDocument.location?.href ?? this.ownerDocument.baseURI);
    this.#key = exerciseKey(this, [...this.ownerDocument.querySelectorAll('dlq-exercise')]);
    const id = uid('dlq-ex');
    const ui = this.#ui = {
      par: h('p', { class: 'dlq-goal-par', hidden: true }),
      status: h('p', { class: 'dlq-goal-status', role: 'status' }),
      refusal: h('p', { class: 'dlq-fatal', role: 'alert', hidden: true }),
      clauses: h('ul', { class: 'dlq-goal-clauses' }),
      detail: null,
      hints: [...this.querySelectorAll('.dlq-hint')],
    };
    this.classList.add('is-live');
    ui.detail = h('details', { class: 'dlq-goal-detail' }, h('summary', {}, 'What the page checks'), ui.clauses);
    this.append(ui.refusal, ui.status, ui.par, ui.detail, this.#buttons({ lab, controller, goal, crash, fields, id }));
    this.#listen(target);
    // Solved on an earlier visit: the ✓ stays (progress.mjs), with the moves it took.
    const before = solvedOn(this.#page).get(this.#key);
    if (before) {
      this.#reached = true;
      this.#showPar(before.actions, 'before');
    }
    const now = this.getAttribute('goal');
    if (now !== goal) this.attributeChangedCallback('goal', goal, now);  // changed while the core loaded
    else this.#check();
  }

  /** The exercise's buttons: Hint (when it has hints), Change <fields>, Show me (with a solution), Start again. */
  #buttons({ lab, controller, goal, crash, fields, id }) {
    const buttons = h('div', { class: 'dlq-buttons' });
    const hints = this.#ui.hints;
    if (hints.length > 0) buttons.append(this.#hintButton(hints, id));
    if (fields !== null) {
      // The set-up fields this exercise changes, outside Advanced (the playground checks the names).
      const names = controller.fieldLabels(fields);
      buttons.append(h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#controller?.showFields(fields) },
        `Change ${names.join(', ')}`));
    }
    const solution = this.getAttribute('solution');
    if (solution) {
      lab.parseScenario(solution);  // a bad solution link is the author's: named now
      // The par: where the core finds Show me's run first meets the goal (none for a crash: links carry none).
      if (crash === null) this.#par = lab.goalPar(goal, solution);  // { actions, steps, moves }
      buttons.append(h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#showMe(solution, crash) }, 'Show me'));
    }
    buttons.append(h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', onclick: () => {
      this.#helped = false;
      this.#controller?.restore();
    } }, 'Start again'));
    return buttons;
  }

  /** The Hint button: shows and hides every hint at once. */
  #hintButton(hints, id) {
    for (const [i, hint] of hints.entries()) {
      hint.id ||= `${id}-hint-${i}`;
      hint.hidden = true;
    }
    const button = h('button', { type: 'button', class: 'dlq-btn', 'aria-expanded': 'false',
      'aria-controls': hints.map((x) => x.id).join(' ') }, 'Hint');
    button.addEventListener('click', () => {
      const open = button.getAttribute('aria-expanded') !== 'true';
      button.setAttribute('aria-expanded', String(open));
      for (const hint of hints) hint.hidden = !open;
    });
    return button;
  }

  /** What the exercise listens to: the prediction it waits for, the playground's changes, a progress reset. */
  #listen(target) {
    const ui = this.#ui;
    // The goal's clauses answer the playground's predict question: withheld until it is answered.
    const withhold = () => {
      const withheld = unansweredPredictFor(this.ownerDocument, target.id);
      if (ui.detail.hidden === withheld) return;
      ui.detail.hidden = withheld;
      this.#check();  // the status line says where the parts went
    };
    ui.detail.hidden = unansweredPredictFor(this.ownerDocument, target.id);
    this.ownerDocument.addEventListener('dlq-predict', withhold);
    target.addEventListener('dlq-change', () => this.#check());
    // Removed and added again, the playground has a new controller: check it (a goal met stays met).
    target.addEventListener('dlq-mount', () => this.#check());
    this.ownerDocument.addEventListener('dlq-progress-reset', (e) => {
      if (e.detail?.page !== this.#page) return;
      // The lesson starts over: the playground too, so a goal it still meets is not counted again at once.
      this.#reached = false;
      this.#helped = false;
      ui.par.hidden = true;
      this.#controller?.restore();
      this.#check();
    });
  }

  /** A changed goal: parsed again; a refusal is said in the box, by name, and no clause is kept. */
  attributeChangedCallback(name, oldValue, value) {
    if (name !== 'goal' || oldValue === value || !this.#ui) return;
    const ui = this.#ui;
    this.#goal = null;
    this.#reached = false;
    this.classList.remove('is-met');
    ui.clauses.replaceChildren();
    try {
      if (value === null) throw new Error('goal: expected a goal (docs/goals.md), got no goal attribute');
      this.#lab.parseGoal(value);
    } catch (error) {
      ui.refusal.textContent = `This exercise's goal was refused: ${error.message}`;
      ui.refusal.hidden = false;
      ui.status.textContent = 'No goal to check.';
      return;
    }
    ui.refusal.hidden = true;
    ui.refusal.textContent = '';
    this.#goal = value;
    this.#check();
  }

  /** The par line: after a solve now, or (`when` 'before') one stored from an earlier visit. */
  #showPar(actions, when = 'now') {
    const ui = this.#ui;
    const text = parText(actions, this.#par?.moves ?? null);
    ui.par.textContent = when === 'before' ? `Solved on an earlier visit. ${text}` : text;
    ui.par.hidden = ui.par.textContent === '';
  }

  #showMe(solution, crash) {
    const controller = this.#controller;
    if (!controller) return;
    this.#helped = true;
    controller.load(solution);
    if (crash !== null) {
      // A crash is not part of a link: play the script, then crash after that write.
      controller.toEnd();
      controller.crashAt(crash === 'matters' ? null : crash);
      return;
    }
    controller.element.scrollIntoView({ block: 'nearest' });
    controller.run();
  }

  #check() {
    const ui = this.#ui;
    const controller = this.#controller;
    if (!controller || this.#goal === null) return;  // the playground is gone for now, or the goal is refused
    const result = controller.checkGoal(this.#goal);
    // Show me's run meets the goal for the learner: said, but not kept as a solve.
    const helped = result.met && this.#helped && !this.#reached;
    const first = result.met && !this.#reached && !helped;
    if (first) {
      this.#reached = true;
      // The learner's own moves up to now, as the core counts them (not the simulated workers').
      const actions = this.#lab.learnerMoves(controller.session.scenario);
      markSolved(this.#page, this.#key, { actions, par: this.#par?.moves ?? null });
      this.#showPar(actions);
    }
    const status = helped ? '✓ Show me’s run meets the goal. Press Start again and meet it yourself to mark it solved.'
      : result.met ? '✓ Goal met.'
        : this.#reached ? '✓ You met this goal (the playground has moved on since).'
          : ui.detail?.hidden ? 'Not yet. What the page checks shows once the prediction above is answered.'
            : 'Not yet: the parts below show what holds now.';
    if (ui.status.textContent !== status) ui.status.textContent = status;
    this.classList.toggle('is-met', this.#reached);
    ui.clauses.replaceChildren(...result.clauses.map((c) => h('li', { class: c.met ? 'is-met' : '' },
      h('span', { class: 'dlq-goal-mark', 'aria-hidden': 'true' }, c.met ? '✓' : '✗'),
      h('code', {}, c.text), ` — ${c.met ? 'holds' : 'not yet'}: ${c.actual}`)));
    if (first) {
      this.dispatchEvent(new CustomEvent('dlq-goal', { bubbles: true,
        detail: { goal: this.#goal, for: this.getAttribute('for'), met: true } }));
    }
  }
}

export class DlqSystemsElement extends BesidePlayground {
  async start() {
    const target = targetOf(this);
    const [{ systemByKey }, { connectSnippets }] = await Promise.all([import('./systems.mjs'), import('../shared/snippets.mjs')]);
    const keys = (this.getAttribute('systems') ?? '').trim().split(/\s+/).filter(Boolean);
    const systems = keys.map((key) => systemByKey(key));
    const unknown = keys.find((key, i) => systems[i] === undefined);
    if (keys.length === 0 || unknown !== undefined) {
      throw new Error(`systems: expected a list of system keys, got ${quoted(this.getAttribute('systems') ?? '')}`);
    }
    // The core comes with the playground (a lazy one mounts when the reader comes near).
    if (!await target.ready) return;
    connectSnippets(await loadLab());  // the core writes every snippet (core/config/, lab.writeSnippet)
    // The playground's controller now: a playground removed and added again has a new one.
    const current = () => target.controller;
    const id = uid('dlq-sys');
    const chosen = { system: null };
    const name = h('p', { class: 'dlq-system-name' });
    const differs = h('p', { class: 'dlq-system-differs' });
    const facts = h('ul', { class: 'dlq-system-facts' });
    const code = h('code', {});
    const language = h('span', { class: 'dlq-system-lang' });
    const copyStatus = h('span', { role: 'status', class: 'dlq-system-copy' });
    const copy = h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet' }, 'Copy snippet');
    const panel = h('div', { class: 'dlq-system-panel', id: `${id}-panel`, hidden: true }, name, differs, facts,
      h('p', { class: 'dlq-system-snippet-head' }, h('strong', {}, 'Configuration, from the playground’s policy now '), language, ' ', copy, ' ', copyStatus),
      h('pre', { class: 'dlq-snippet', tabindex: 0 }, code));
    const buttons = systems.map((system) => {
      const button = h('button', { type: 'button', class: 'dlq-btn', 'aria-pressed': 'false', 'aria-controls': `${id}-panel` },
        `Load ${system.name}`);
      button.addEventListener('click', () => {
        for (const b of buttons) b.setAttribute('aria-pressed', String(b === button));
        chosen.system = system;
        const controller = current();
        if (!controller) return;
        controller.load(system.scenario);
        name.textContent = system.loads ?? `${system.name}: its defaults, as near as the lab can set them, are loaded in the playground below. Press Run to play them.`;
        differs.textContent = `Where the lab differs: ${system.differs}`;
        facts.replaceChildren(...system.facts.map((f) => h('li', {}, f)));
        panel.hidden = false;
        snippet();
      });
      return button;
    });
    const snippet = () => {
      const controller = current();
      if (!chosen.system || !controller) return;
      const { language: lang, text } = chosen.system.snippet(controller.session.queue.policy(), controller.session.queue.rules());
      language.textContent = `(${lang})`;
      if (code.textContent !== text) code.textContent = text;
    };
    copy.addEventListener('click', () => copyText(code.textContent, { status: copyStatus, blocked: 'Copying is blocked here: select the snippet and copy it.' }));
    target.addEventListener('dlq-change', snippet);
    this.append(h('div', { class: 'dlq-buttons', role: 'group', 'aria-label': 'Real systems' }, buttons), panel);
  }
}

// The page's start, a task per step (each defines elements, and every element of that name on
// the page is built then): three short tasks after the first paint instead of one long one.
async function startLesson() {
  // <dlq-predict> first: connected, it marks its playground's future as hidden before that playground mounts.
  if (!customElements.get('dlq-predict')) customElements.define('dlq-predict', DlqPredictElement);
  await nextTask();
  defineElement(() => import('../playground/playground.mjs').then((m) => m.mount));
  if (!customElements.get('dlq-exercise')) customElements.define('dlq-exercise', DlqExerciseElement);
  if (!customElements.get('dlq-systems')) customElements.define('dlq-systems', DlqSystemsElement);
  await nextTask();
  startLessonMap(document);
  markInteractive();
}

startLesson();
