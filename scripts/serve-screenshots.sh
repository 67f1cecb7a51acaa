#!/usr/bin/env bash
# Regenerates the screenshots of docs/serve.md (docs/img/serve-*.png): runs the browser test
# of `agon serve` (tests/tests/serve_browser.rs), which saves them where AGON_SCREENSHOTS
# says. Needs Debian's chromium and chromium-driver (apt-get install -y chromium
# chromium-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
AGON_REQUIRE_BROWSER=1 AGON_SCREENSHOTS="$PWD/docs/img" \
    cargo test --release -p agon-tests --test serve_browser -- --nocapture
echo "screenshots of commit $(git rev-parse --short HEAD) in docs/img/serve-*.png"
