// The JavaScript linter for web/static: plain browser scripts with no build step, loaded
// in order by the templates. common.js defines the one shared global, Clacks; every other
// script only reads it.
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  {
    files: ["web/static/**/*.js"],
    ...js.configs.recommended,
  },
  {
    files: ["web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser, Clacks: "readonly" },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none", ignoreRestSiblings: true }],
      "no-undef": "error",
      eqeqeq: ["error", "smart"],
      "no-var": "error",
      "prefer-const": "error",
      strict: ["error", "global"],
    },
  },
  {
    files: ["web/static/js/common.js"],
    languageOptions: { globals: { ...globals.browser, Clacks: "off" } },
    rules: { "no-unused-vars": ["error", { varsIgnorePattern: "^Clacks$", caughtErrors: "none" }] },
  },
];
