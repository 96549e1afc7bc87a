// A bot for a sushigo server, written from docs/bot-api.md alone (Node.js 18+, no packages):
// it accepts every challenge, plays the first legal entry of each pick message, and prints
// every line of its game streams to standard output as "GAME_ID LINE" (the tests compare
// them with the table's record).  It stops after SUSHIGO_GAMES tables have finished.
//
//   SUSHIGO_SERVER=http://localhost:8000 SUSHIGO_TOKEN=sgb_... node first_legal.mjs

const server = process.env.SUSHIGO_SERVER;
const token = process.env.SUSHIGO_TOKEN;
const games = Number(process.env.SUSHIGO_GAMES || "1");
const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };

async function call(path, body) {
  for (;;) {
    const res = await fetch(server + path, { method: "POST", headers, body: JSON.stringify(body) });
    const answer = await res.json();
    if (res.status === 429) { // too many calls a second: wait a second and send it again
      await new Promise((done) => setTimeout(done, 1000));
      continue;
    }
    if (!res.ok) console.error(`${path}: ${res.status} ${answer.error}`);
    return answer;
  }
}

async function* lines(path) {
  const res = await fetch(server + path, { headers });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${(await res.json()).error}`);
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (line) yield JSON.parse(line);
    }
  }
}

async function play(id) {
  for await (const message of lines(`/api/bot/game/${id}/stream`)) {
    console.log(`${id} ${JSON.stringify(message)}`);
    if (message.type === "pick") {
      await call(`/api/bot/game/${id}/pick`, { seq: message.seq, pick: message.legal[0] });
    }
  }
}

let finished = 0;
const playing = new Map();
for await (const event of lines("/api/bot/stream/event")) {
  if (event.type === "challenge") {
    await call(`/api/bot/challenge/${event.challenge.id}/accept`, {});
  } else if (event.type === "gameStart" && !playing.has(event.game.id)) {
    playing.set(event.game.id, play(event.game.id).catch((e) => console.error(String(e))));
  } else if (event.type === "gameFinish") {
    await playing.get(event.game.id); // its stream ends with the table's end line
    finished += 1;
    if (finished >= games) process.exit(0);
  }
}
