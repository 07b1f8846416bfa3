// Quarry console: copy buttons and "try it". No library, no storage: the
// browser credential "try it" mints lives in this closure only.
(function () {
  "use strict";

  const csrf = document.querySelector('meta[name="csrf-token"]').content;

  // Copy buttons copy the text of the element their data-copy names.
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const source = document.getElementById(button.dataset.copy);
      try {
        await navigator.clipboard.writeText(source.textContent);
        button.textContent = "Copied";
      } catch (e) {
        const range = document.createRange();
        range.selectNodeContents(source);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        button.textContent = "Selected: press Ctrl+C";
      }
    });
  }

  const form = document.getElementById("try-form");
  if (!form) {
    return;
  }
  let credential = null; // {secret, prefix, scopes, expires}

  // mint returns a browser credential carrying exactly the ticked
  // permissions, minting one when there is none, the permissions changed,
  // or it expires within half a minute.
  async function mint(scopes) {
    const want = scopes.join(" ");
    if (credential && credential.scopes === want && Date.now() < credential.expires - 30000) {
      return credential;
    }
    const res = await fetch("/console/credentials", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ scopes: scopes }),
    });
    const body = await res.json();
    if (!res.ok) {
      throw new Error(body.message || "could not mint a browser credential (" + res.status + ")");
    }
    credential = { secret: body.api_key, id: body.credential_id, scopes: want, expires: Date.parse(body.expires_at) };
    return credential;
  }

  function show(id, text) {
    document.getElementById(id).textContent = text;
  }

  // previewLines is how many lines of a text response the page shows; the
  // rest is offered as a download.
  const previewLines = 20;
  let downloadURL = "";

  // showFile shows a response that is no JSON: the first lines of a text
  // (a CSV export), or its size, and a link that saves it whole under the
  // name its Content-Disposition gives, or else its path's last part.
  async function showFile(blob, type, disposition, path) {
    let name = (disposition.match(/filename="?([^";]+)"?/) || [])[1] || path.split("/").pop() || "response";
    if (!name.includes(".") && type.startsWith("text/csv")) {
      name += ".csv";
    }
    if (type.startsWith("text/")) {
      const lines = (await blob.text()).split("\n");
      const more = lines.length - previewLines;
      show("try-body-out", lines.slice(0, previewLines).join("\n") + (more > 0 ? "\n… " + more + " more lines" : ""));
    } else {
      show("try-body-out", blob.size + " bytes of " + type);
    }
    if (downloadURL) {
      URL.revokeObjectURL(downloadURL);
    }
    downloadURL = URL.createObjectURL(blob);
    const link = document.getElementById("try-download-link");
    link.href = downloadURL;
    link.download = name;
    show("try-download-size", blob.size + " bytes, " + type);
    document.getElementById("try-download").hidden = false;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const method = document.getElementById("try-method").value;
    const target = new URL(document.getElementById("try-path").value, window.location.origin);
    const result = document.getElementById("try-result");
    result.hidden = false;
    for (const id of ["try-status", "try-cost", "try-remaining", "try-request-id", "try-credential", "try-body-out"]) {
      show(id, "");
    }
    document.getElementById("try-download").hidden = true;
    if (target.origin !== window.location.origin) {
      show("try-status", "refused: the path must be a path of this service");
      return;
    }
    const scopes = Array.from(form.querySelectorAll('input[name="scope"]:checked'), (box) => box.value);
    try {
      const cred = await mint(scopes);
      show("try-credential", cred.id + " (" + cred.scopes + "), expires " + new Date(cred.expires).toISOString());
      const init = { method: method, headers: { "X-API-KEY": cred.secret }, credentials: "omit" };
      if (method === "POST") {
        init.headers["Content-Type"] = "application/json";
        init.body = document.getElementById("try-body").value;
      }
      const res = await fetch(target.pathname + target.search, init);
      show("try-status", res.status + " " + res.statusText);
      show("try-cost", res.headers.get("X-Credits-Cost") || "(none)");
      show("try-remaining", res.headers.get("X-Credits-Remaining") || "(none)");
      show("try-request-id", res.headers.get("X-Request-ID") || "");
      const type = res.headers.get("Content-Type") || "";
      if (type.startsWith("application/json")) {
        show("try-body-out", JSON.stringify(await res.json(), null, 2));
      } else {
        await showFile(await res.blob(), type, res.headers.get("Content-Disposition") || "", target.pathname);
      }
      const balance = res.headers.get("X-Credits-Remaining");
      if (balance) {
        show("header-balance", Number(balance).toLocaleString("en-US") + " credits");
      }
    } catch (e) {
      show("try-status", "error: " + e.message);
    }
  });
})();
