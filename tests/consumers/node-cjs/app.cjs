// A Node CommonJS program: `require` through the package's exports map.
const pm = require("predmarket");

import("../check.mjs")
  .then(({ check }) => check(pm, { baseUrl: process.env.PREDMARKET_URL, apiKey: process.env.PREDMARKET_KEY }))
  .then((result) => console.log(`RESULT ${JSON.stringify(result)}`));
