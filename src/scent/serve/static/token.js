// scent web UI, access token. `scent serve` wants one (the address it prints carries it): it is given once
// in the address (http://HOST:PORT/#token=TOKEN), taken out of the address at once (so it stays
// out of the history and of bookmarks), and traded by POST /api/session for an HttpOnly,
// SameSite=Strict cookie that fetches, thumbnails and opened files then carry: no script can
// read it back, and no other site's page can send it. app.js waits for `scentSession` first.
"use strict";

window.scentSession = (async () => {
  const found = /^#token=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!found) return null;
  history.replaceState(null, "", location.pathname + location.search);
  const response = await fetch("/api/session", { method: "POST", headers: { Authorization: "Bearer " + found[1] } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || response.statusText);
  if (body.user) document.body.setAttribute("data-user", body.user);
  return body.user;
})();
