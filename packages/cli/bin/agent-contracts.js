#!/usr/bin/env node
// Thin shim: all behaviour lives in src/, built to one bundle in dist/ (scripts/bundle-reference.mjs,
// target cli-published). See docs/cli.md.
import '../dist/bin.mjs';
