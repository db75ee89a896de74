// hoc peer benchmark driver for Dominiate (rspeer/dominiate), run with node.
//
//   node driver.js MODE N [SECONDS]
//
// MODE: mirror (big_money vs big_money), smithy (smithy_bm vs big_money),
//       solo_bm, solo_smithy (one player alone until it owns 4 Provinces).
// N games (SECONDS > 0: play until that many seconds have passed, N is a cap).
// Seats alternate: even game index -> bot A moves first.
// Prints one JSON object: {"games", "seconds", "records"}; a 2-player record
// is [a_first, vpA, vpB, turnsA, turnsB, result] with result 0 = A wins,
// 1 = B wins, 2 = shared, as decided by Dominiate's own State.getWinners();
// a solo record is the number of turns taken.
'use strict';
const path = require('path');
const fs = require('fs');
const CACHE = process.env.HOC_PEERS_CACHE || path.join(require('os').homedir(), '.cache', 'hoc-peers');
const D = path.join(CACHE, 'dominiate');
const coffee = require(path.join(D, 'node', 'node_modules', 'coffee-script'));
const {BasicAI} = require(path.join(D, 'js', 'basicAI.js'));
const {State} = require(path.join(D, 'js', 'gameState.js'));
const {c} = require(path.join(D, 'js', 'cards.js'));

// A fixed base-set kingdom containing Smithy (irrelevant to the money bots).
const KINGDOM = ['Smithy', 'Village', 'Market', 'Militia', 'Moat', 'Cellar',
                 'Chapel', 'Workshop', 'Laboratory', 'Festival'];

function loadBot(file, name) {
  // Same mechanism as dominiate's play.coffee loadStrategy.
  const ai = new BasicAI();
  const changes = eval(coffee.compile(fs.readFileSync(file, 'utf-8'), {bare: true}));
  for (const key of Object.keys(changes)) ai[key] = changes[key];
  // Distinct names matter: getWinners() and buyCausesToLose() identify players by name.
  ai.name = name;
  return ai;
}

const noLog = () => {};

function playTwo(aiFirst, aiSecond) {
  const st = new State().initialize([aiFirst, aiSecond], KINGDOM.map(n => c[n]), noLog);
  let steps = 0;
  while (!st.gameIsOver()) {
    st.doPlay();
    if (++steps > 100000) throw new Error('game did not end');
  }
  return st;
}

function main() {
  const [mode, nArg, secArg] = process.argv.slice(2);
  const n = parseInt(nArg || '1000', 10);
  const seconds = parseFloat(secArg || '0');
  const botDir = __dirname;
  const records = [];
  // Dominiate occasionally throws inside its own engine (about 1 game in
  // 25,000 of smithy_bm vs big_money): its shuffle's parseInt(Math.random() * i)
  // misreads products below 1e-6 written in exponent form, which can leave
  // undefined holes in a pile. Such a game is dropped, counted in "crashed",
  // and replayed with the same seats.
  let crashed = 0, crashMessage = null;
  const guard = (g, fn) => {
    try { fn(); return g; } catch (e) {
      crashed++; crashMessage = String(e && e.message);
      if (crashed > 1000) throw e;
      return g - 1;
    }
  };
  const t0 = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - t0) / 1e9;
  if (mode === 'mirror' || mode === 'smithy') {
    const A = loadBot(path.join(botDir, mode === 'mirror' ? 'big_money.coffee' : 'smithy_bm.coffee'), 'A');
    const B = loadBot(path.join(botDir, 'big_money.coffee'), 'B');
    for (let g = 0; g < n; g++) {
      if (seconds > 0 && elapsed() >= seconds) break;
      const aFirst = g % 2 === 0;
      let st = null;
      const g2 = guard(g, () => { st = playTwo(aFirst ? A : B, aFirst ? B : A); });
      if (g2 !== g) { g = g2; continue; }
      const pa = st.players.find(p => p.ai === A);
      const pb = st.players.find(p => p.ai === B);
      const winners = st.getWinners();
      const result = winners.length > 1 ? 2 : (winners[0] === 'A' ? 0 : 1);
      records.push([aFirst ? 1 : 0, pa.getVP(st), pb.getVP(st), pa.turnsTaken, pb.turnsTaken, result]);
    }
  } else if (mode === 'solo_bm' || mode === 'solo_smithy') {
    const A = loadBot(path.join(botDir, mode === 'solo_bm' ? 'big_money.coffee' : 'smithy_bm.coffee'), 'A');
    for (let g = 0; g < n; g++) {
      if (seconds > 0 && elapsed() >= seconds) break;
      let turns = 0;
      const g2 = guard(g, () => {
        const st = new State().initialize([A], KINGDOM.map(n => c[n]), noLog);
        const me = st.players[0];
        // Play whole turns until the player owns 4 Provinces (checked between turns).
        while (!(st.phase === 'start' && me.countInDeck('Province') >= 4)) {
          st.doPlay();
          if (me.turnsTaken > 200) throw new Error('solo game did not reach 4 Provinces');
        }
        turns = me.turnsTaken;
      });
      if (g2 !== g) { g = g2; continue; }
      records.push(turns);
    }
  } else {
    console.error('usage: node driver.js mirror|smithy|solo_bm|solo_smithy N [SECONDS]');
    process.exit(2);
  }
  process.stdout.write(JSON.stringify({games: records.length, seconds: elapsed(), records, crashed, crash_message: crashMessage}) + '\n');
}
main();
