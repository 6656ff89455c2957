// Headless Chromium for the HTML report tests: shared with test/integration (tooling/test-helpers).
export { CHROMIUM, launchChromium, skipWithoutChromium } from '../../../tooling/test-helpers/chromium.ts';
