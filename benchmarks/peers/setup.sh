#!/usr/bin/env bash
# Fetch/build one Dominion peer simulator into the cache folder (never into the repo).
#
#   bash benchmarks/peers/setup.sh pyminion|dominiate|dominionsim|all
#
# Cache folder: $HOC_PEERS_CACHE (default ~/.cache/hoc-peers).
# Sources of dominiate / DominionSim: $HOC_PEERS_SRC/<name> if that holds a
# checkout (a directory with the files or a bare git dir), else `git clone`
# of the public repository at the pinned commit below.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${HOC_PEERS_CACHE:-$HOME/.cache/hoc-peers}"
SRC_ROOT="${HOC_PEERS_SRC:-/work/.mirror}"
mkdir -p "$CACHE"

PYMINION_VERSION=0.4.0
DOMINIATE_REPO=https://github.com/rspeer/dominiate
DOMINIATE_COMMIT=edc75b4e8c9162d0679d4d03a1a5837396273734
DOMINIONSIM_REPO=https://github.com/Geronimoo/DominionSim
DOMINIONSIM_COMMIT=8e568543701e228e41f5252e55284f7debce7b77

# get_source NAME LOCAL_DIRNAME REPO COMMIT DEST
get_source() {
  local name=$1 local_name=$2 repo=$3 commit=$4 dest=$5
  if [ -f "$dest/.hoc-commit" ] && [ "$(cat "$dest/.hoc-commit")" = "$commit" ]; then
    return 0
  fi
  rm -rf "$dest"; mkdir -p "$dest"
  local src="$SRC_ROOT/$local_name"
  if [ -d "$src" ] && [ -d "$src/repo" ] && git --git-dir="$src/repo" rev-parse -q --verify "$commit^{commit}" >/dev/null 2>&1; then
    git --git-dir="$src/repo" archive "$commit" | tar -x -C "$dest"
  elif [ -d "$src" ] && [ -n "$(ls -A "$src" 2>/dev/null)" ]; then
    echo "$name: copying sources from $src (assumed to be commit $commit)" >&2
    cp -a "$src/." "$dest/"
  else
    git clone -q "$repo" "$dest.git-tmp"
    git -C "$dest.git-tmp" archive "$commit" | tar -x -C "$dest"
    rm -rf "$dest.git-tmp"
  fi
  echo "$commit" > "$dest/.hoc-commit"
}

setup_pyminion() {
  local venv="${HOC_PEERS_VENV:-$CACHE/pyminion-venv}"
  if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
  "$venv/bin/pip" install -q "pyminion==$PYMINION_VERSION"
  "$venv/bin/python" -c "import pyminion, importlib.metadata as m; print('pyminion', m.version('pyminion'), 'in', '$venv')"
}

setup_dominiate() {
  local d="$CACHE/dominiate"
  get_source dominiate rspeer+dominiate "$DOMINIATE_REPO" "$DOMINIATE_COMMIT" "$d/src"
  mkdir -p "$d/node"
  # The package index's coffee-script 1.6.3 is the compiler version dominiate's package.json pins.
  (cd "$d/node" && [ -x node_modules/.bin/coffee ] || npm install -s --no-audit --no-fund coffee-script@1.6.3 >/dev/null)
  rm -rf "$d/js"; mkdir -p "$d/js"
  "$d/node/node_modules/.bin/coffee" -c -o "$d/js" "$d/src/basicAI.coffee" "$d/src/cards.coffee" "$d/src/gameState.coffee"
  echo "dominiate $DOMINIATE_COMMIT compiled into $d/js"
}

setup_dominionsim() {
  local d="$CACHE/dominionsim"
  get_source dominionsim Geronimoo+DominionSim "$DOMINIONSIM_REPO" "$DOMINIONSIM_COMMIT" "$d/src"
  # Maven Central is not reachable here; the three runtime jars come from Debian packages.
  local jars=/usr/share/java/log4j-1.2.jar:/usr/share/java/jfreechart.jar:/usr/share/java/jcommon.jar
  for j in ${jars//:/ }; do
    if [ ! -f "$j" ]; then
      echo "dominionsim: $j missing; run: apt-get install -y liblog4j1.2-java libjfreechart-java libjcommon-java" >&2
      exit 2
    fi
  done
  rm -rf "$d/classes"; mkdir -p "$d/classes"
  find "$d/src/src/main/java" -name '*.java' > "$d/sources.txt"
  echo "$HERE/dominionsim/HocPeerDriver.java" >> "$d/sources.txt"
  javac -nowarn -encoding UTF-8 -source 8 -target 8 -cp "$jars" -d "$d/classes" @"$d/sources.txt" 2>&1 | grep -v '^Note:\|^warning:\|^1 warning' || true
  cp "$d/src/src/main/java/be/aga/dominionSimulator/DomBots.xml" "$d/classes/be/aga/dominionSimulator/"
  echo "$jars" > "$d/classpath.txt"
  test -f "$d/classes/HocPeerDriver.class"
  echo "dominionsim $DOMINIONSIM_COMMIT compiled into $d/classes"
}

case "${1:-all}" in
  pyminion) setup_pyminion ;;
  dominiate) setup_dominiate ;;
  dominionsim) setup_dominionsim ;;
  all) setup_pyminion; setup_dominiate; setup_dominionsim ;;
  *) echo "usage: $0 pyminion|dominiate|dominionsim|all" >&2; exit 2 ;;
esac
