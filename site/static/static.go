// Package static holds the site's hand-written and npm-built assets, which
// the build copies to the site root: the stylesheet (app.css), the page
// scripts (app.js, boot.js, share.js, worker.js), the icon (favicon.svg),
// the playground's code editor (editor.js) and the browser's SQLite
// (sqlite.js, sqlite3.wasm), the last three built by `make editor`. The
// files live here, beside this package, so the Makefile, npm and the
// browser tests name them where they are; the package only embeds them.
package static

import "embed"

// FS holds every asset, at the root (app.css, not static/app.css). The
// patterns name the kinds of file the site serves, so this file and its
// test stay out; TestEveryAssetIsEmbedded fails on a file of another kind
// put here, which would otherwise never reach the site.
//
//go:embed *.css *.js *.svg *.wasm
var FS embed.FS
