// Every playground preset is a scenario the core takes as it is: a preset the core refuses is
// refused on the page ("The preset … was not loaded"), which only a browser test would see.
// The lab's own, the capstones and the real systems' presets: each formats to a link that
// parses back, and plays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lab } from './helpers.mjs';
import { CAPSTONE_PRESETS, PRESETS, SYSTEM_PRESETS } from '../../web/src/playground/presets.mjs';

for (const [group, presets] of [['lab', PRESETS], ['capstone', CAPSTONE_PRESETS], ['system', SYSTEM_PRESETS]]) {
  test(`every ${group} preset is a scenario the core takes, formats and plays`, () => {
    assert.ok(presets.length > 0);
    for (const preset of presets) {
      let link;
      assert.doesNotThrow(() => { link = lab.formatScenario(preset.scenario); }, `preset "${preset.name}"`);
      const parsed = lab.parseScenario(link);
      assert.equal(lab.formatScenario(parsed), link, `preset "${preset.name}": its link reads back to itself`);
      assert.doesNotThrow(() => lab.runScenario(preset.scenario), `preset "${preset.name}" plays`);
    }
  });
}
