#!/usr/bin/env bash
# Sets the package's version where it lives — package.json (the one place every generator reads),
# with policy/package.json and the lockfile kept in step — and nothing else:
#
#   bash scripts/set-version.sh 0.2.0 && npm run gen:sdks   # then commit, then tag v0.2.0
#
# The generated SDKs embed the version (sdk/go's plugin version, the Python package's, the Java
# SDK's pom and plugin.json), so `npm run gen:sdks` must follow before the commit a release is built
# from: scripts/release.sh refuses a commit whose generated files are not what it generates.
set -euo pipefail
version="${1:?usage: set-version.sh X.Y.Z}"
[[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] || {
  echo "set-version.sh: '$version' is not a version like 1.2.3 (no leading v, no pre-release label)" >&2
  exit 2
}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node -e '
  const fs = require("fs");
  const [version] = process.argv.slice(1);
  const rewrite = (file, change) => {
    const json = JSON.parse(fs.readFileSync(file, "utf8"));
    change(json);
    fs.writeFileSync(file, JSON.stringify(json, null, 2) + "\n");
  };
  for (const file of ["package.json", "policy/package.json"]) rewrite(file, (json) => (json.version = version));
  rewrite("package-lock.json", (lock) => {
    lock.version = version;
    lock.packages[""].version = version;
  });
' "$version"
