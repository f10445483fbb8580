// @ts-check
// Where a playground's scenario comes from: mount()'s options.scenario, load() and
// loadOrAlert(), a preset, and (sync-url) the address bar. The core parses link
// text; a refusal throws before anything changes, or (loadOrAlert) shows the link
// alert and the default scenario, never a blank page. It remembers whether the
// scenario on show is the one options.captions narrate.
import { PRESETS, CAPSTONE_PRESETS, SYSTEM_PRESETS, DEFAULT_SCENARIO } from './presets.mjs';
import { isRefusal } from './flow.mjs';
import { linkErrorMessage, scenarioLinkFrom } from '../shared/url.mjs';

export const ALL_PRESETS = [...PRESETS, ...CAPSTONE_PRESETS, ...SYSTEM_PRESETS];

export class ScenarioLoader {
  #flow;
  #url;
  #crash;
  /** The authored script on show is the one options.captions belong to (options.scenario). */
  captioned = false;

  /** `url`: the link's controller (url-sync.mjs); `crash`: Crash and restart's (crash-panel.mjs). */
  constructor(flow, { url, crash }) {
    this.#flow = flow;
    this.#url = url;
    this.#crash = crash;
  }

  /**
   * Loads link text (a full URL or a #fragment as Copy link gives it, or the bare link:
   * scenarioLinkFrom) or a scenario object, without drawing; a refusal throws and
   * nothing changes. `captioned`: the scenario is the one options.captions narrate.
   */
  load(scenario, captioned = false) {
    const link = scenarioLinkFrom(scenario, 'scenario');
    this.#flow.pause();
    this.#flow.session.load(link);
    this.captioned = captioned;
    this.#flow.view.linkRefused(null);
  }

  /** load(), or on a refusal the default scenario and the link alert; false then. */
  loadOrAlert(scenario, captioned = false) {
    try {
      this.load(scenario, captioned);
      return true;
    } catch (error) {
      this.#flow.pause();
      if (!isRefusal(error)) throw error;
      this.#flow.session.load(DEFAULT_SCENARIO);
      this.captioned = false;
      this.#flow.view.linkRefused(linkErrorMessage(error), typeof scenario === 'string' ? scenario : '');
      return false;
    }
  }

  /** A scenario link read from the address bar (sync-url): a refused one is held there (url-sync.mjs). */
  loadFromHash(text) {
    this.#url.loadedFromHash(!this.loadOrAlert(text));
  }

  /** sync-url: the address bar changed; a new scenario link in it loads and draws. */
  hashChanged() {
    const text = this.#url.hashChanged();
    if (text === null) return;
    this.loadFromHash(text);
    this.#flow.render();
  }

  /**
   * Loads a preset. With sync-url the link before it stays in the browser's
   * history, so Back undoes it: a change still waiting for its debounced hash
   * write is written first, so it is that history entry and is not lost. A crash preset
   * answers a promise that settles once Crash and restart is open (its module loads first).
   */
  preset(key) {
    const flow = this.#flow;
    const preset = ALL_PRESETS.find((p) => p.key === key);
    this.#url.flush();
    // A world's preset is its world's run (played by the core), then its own further actions (`then`).
    const played = (s) => ({ ...s, actions: [...s.actions, ...(preset.then ?? [])] });
    const scenario = () => (preset.scenario.world ? played(flow.lab.playWorld(preset.scenario)) : preset.scenario);
    if (!flow.attempt(() => this.load(scenario()), flow.refusedAs(`The preset "${preset.name}" was not loaded`))) return;
    this.#url.pushNext();
    if (preset.crash) {
      // The crash presets play their script, then open Crash and restart at the write that matters.
      flow.goTo(flow.session.length);
      flow.render({ notice: `${preset.name}: ${preset.summary}` });
      return this.#crash.openAt(null);
    }
    flow.render({ notice: `${preset.name}: ${preset.summary} Press Run or Forward to play it.` });
  }
}
