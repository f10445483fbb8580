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
import { defineElement } from './element.mjs';
import { markInteractive } from './interactive.mjs';
import { h, uid } from './dom.mjs';

const loadLab = () => import('../wasm/index.mjs').then((m) => m.loadLab());

/** The <dlq-playground> named by `el`'s `for`, or an error naming the attribute. */
function targetOf(el) {
  const id = el.getAttribute('for');
  const target = id ? el.ownerDocument.getElementById(id) : null;
  if (!target || target.localName !== 'dlq-playground') {
    throw new Error(`for: expected the id of a <dlq-playground> on this page, got ${JSON.stringify(id ?? '')}`);
  }
  return target;
}

/**
 * An element beside a playground: start() runs once, on the first connection; a
 * failure (an author's bad attribute, a goal the core refuses) is said in it.
 */
class BesidePlayground extends HTMLElement {
  #started = false;

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    this.start().catch((error) => {
      this.append(h('p', { class: 'dlq-fatal', role: 'alert' }, `This ${this.localName.slice(4)} could not start: ${error.message}.`));
    });
  }
}

export class DlqExerciseElement extends BesidePlayground {
  #reached = false;
  #ui = null;
  #controller = null;

  async start() {
    const target = targetOf(this);
    const goal = this.getAttribute('goal') ?? '';
    const lab = await loadLab();
    lab.parseGoal(goal);  // an author's mistake is named here, before anything is drawn
    const controller = await target.ready;
    if (!controller) return;
    this.#controller = controller;
    const id = uid('dlq-ex');
    const ui = this.#ui = {
      status: h('p', { class: 'dlq-goal-status', role: 'status' }),
      clauses: h('ul', { class: 'dlq-goal-clauses' }),
      hints: [...this.querySelectorAll('.dlq-hint')],
    };
    this.classList.add('is-live');
    const buttons = h('div', { class: 'dlq-buttons' });
    if (ui.hints.length > 0) {
      for (const [i, hint] of ui.hints.entries()) {
        hint.id ||= `${id}-hint-${i}`;
        hint.hidden = true;
      }
      const hintButton = h('button', { type: 'button', class: 'dlq-btn', 'aria-expanded': 'false',
        'aria-controls': ui.hints.map((x) => x.id).join(' ') }, 'Hint');
      hintButton.addEventListener('click', () => {
        const open = hintButton.getAttribute('aria-expanded') !== 'true';
        hintButton.setAttribute('aria-expanded', String(open));
        for (const hint of ui.hints) hint.hidden = !open;
      });
      buttons.append(hintButton);
    }
    const solution = this.getAttribute('solution');
    if (solution) {
      lab.parseScenario(solution);  // a bad solution link is the author's: named now
      buttons.append(h('button', { type: 'button', class: 'dlq-btn', onclick: () => this.#showMe(solution) }, 'Show me'));
    }
    buttons.append(h('button', { type: 'button', class: 'dlq-btn dlq-btn-quiet', onclick: () => controller.restore() }, 'Start again'));
    this.append(ui.status,
      h('details', { class: 'dlq-goal-detail' }, h('summary', {}, 'What the page checks'), ui.clauses),
      buttons);
    target.addEventListener('dlq-change', () => this.#check());
    this.#check();
  }

  #showMe(solution) {
    const controller = this.#controller;
    controller.load(solution);
    const crash = this.getAttribute('solution-crash');
    if (crash !== null) {
      // A crash is not part of a link: play the script, then crash after that write.
      controller.toEnd();
      controller.crashAt(crash === '' ? null : Number(crash));
      return;
    }
    controller.element.scrollIntoView({ block: 'nearest' });
    controller.run();
  }

  #check() {
    const ui = this.#ui;
    const result = this.#controller.checkGoal(this.getAttribute('goal'));
    const first = result.met && !this.#reached;
    if (result.met) this.#reached = true;
    const status = result.met ? '✓ Goal met.'
      : this.#reached ? '✓ You met this goal (the playground has moved on since).'
        : 'Not yet: the parts below show what holds now.';
    if (ui.status.textContent !== status) ui.status.textContent = status;
    this.classList.toggle('is-met', this.#reached);
    ui.clauses.replaceChildren(...result.clauses.map((c) => h('li', { class: c.met ? 'is-met' : '' },
      h('span', { class: 'dlq-goal-mark', 'aria-hidden': 'true' }, c.met ? '✓' : '✗'),
      h('code', {}, c.text), ` — ${c.met ? 'holds' : 'not yet'}: ${c.actual}`)));
    if (first) {
      this.dispatchEvent(new CustomEvent('dlq-goal', { bubbles: true,
        detail: { goal: this.getAttribute('goal'), for: this.getAttribute('for'), met: true } }));
    }
  }
}

export class DlqSystemsElement extends BesidePlayground {
  async start() {
    const target = targetOf(this);
    const { systemByKey } = await import('./systems.mjs');
    const keys = (this.getAttribute('systems') ?? '').trim().split(/\s+/).filter(Boolean);
    const systems = keys.map((key) => systemByKey(key));
    const unknown = keys.find((key, i) => systems[i] === undefined);
    if (keys.length === 0 || unknown !== undefined) {
      throw new Error(`systems: expected a list of system keys, got ${JSON.stringify(this.getAttribute('systems') ?? '')}`);
    }
    const controller = await target.ready;
    if (!controller) return;
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
        controller.load(system.scenario);
        name.textContent = `${system.name}: its defaults, as near as the lab can set them, are loaded in the playground below. Press Run to play them.`;
        differs.textContent = `Where the lab differs: ${system.differs}`;
        facts.replaceChildren(...system.facts.map((f) => h('li', {}, f)));
        panel.hidden = false;
        snippet();
      });
      return button;
    });
    const snippet = () => {
      if (!chosen.system) return;
      const { language: lang, text } = chosen.system.snippet(controller.session.queue.policy(), controller.session.queue.rules());
      language.textContent = `(${lang})`;
      if (code.textContent !== text) code.textContent = text;
    };
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(code.textContent);
        copyStatus.textContent = 'Copied.';
      } catch {
        copyStatus.textContent = 'Copying is blocked here: select the snippet and copy it.';
      }
    });
    target.addEventListener('dlq-change', snippet);
    this.append(h('div', { class: 'dlq-buttons', role: 'group', 'aria-label': 'Real systems' }, buttons), panel);
  }
}

defineElement(() => import('./playground.mjs').then((m) => m.mount));
if (!customElements.get('dlq-exercise')) customElements.define('dlq-exercise', DlqExerciseElement);
if (!customElements.get('dlq-systems')) customElements.define('dlq-systems', DlqSystemsElement);
markInteractive();
