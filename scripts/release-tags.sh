#!/usr/bin/env bash
# Tags a release: vX.Y.Z (package.json's version) at HEAD, created when missing, then moves the major tag vX to
# it, and pushes both to origin. Run by .github/workflows/release.yml after it has checked that dist/ is a fresh
# build; test/releaseTags.test.ts runs it against a local bare repository.
# usage: scripts/release-tags.sh [TAG]   TAG: a published release's tag (must equal package.json's version)
set -euo pipefail

version="$(node -p 'require("./package.json").version')"
tag="${1:-v$version}"
if ! [[ "$tag" =~ ^v([0-9]+)\.[0-9]+\.[0-9]+$ ]]; then
  echo "::error title=not a release tag::$tag is not vMAJOR.MINOR.PATCH: no tag moved"
  exit 1
fi
major="v${BASH_REMATCH[1]}"
if [ "$tag" != "v$version" ]; then
  echo "::error title=version mismatch::package.json says $version, the release is $tag"
  exit 1
fi

head="$(git rev-parse HEAD)"
git fetch --quiet --tags --force origin
if existing="$(git rev-parse --quiet --verify "refs/tags/$tag^{commit}")"; then
  if [ "$existing" != "$head" ]; then
    echo "::error title=tag exists::$tag already names $existing, not $head: bump package.json's version"
    exit 1
  fi
else
  git tag --annotate "$tag" --message "$tag" "$head"
  git push --quiet origin "refs/tags/$tag"
fi
git tag --force "$major" "$head"
git push --quiet --force origin "refs/tags/$major"
echo "$tag and $major at $head"
