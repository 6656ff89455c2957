#!/usr/bin/env node
// Thin shim: all behaviour lives in src/ (built to dist/). See docs/cli.md.
import '../dist/bin.js';
