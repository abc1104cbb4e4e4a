// The warning before a signed-in person is signed out for doing nothing (the HMRC timeout dialog pattern;
// app/ui/session-timeout.tsx, docs/decisions/0051-session-expiry-loses-nothing.md). Two minutes before the
// session would end, the script asks the server how long it really has left (another tab, or the interview's
// frame, may have used it since) and, if that is two minutes or less, opens the dialog: a modal <dialog>,
// named by its heading and described by its text, so screen readers announce it; focus goes to "Stay signed
// in" and comes back where it was. "Stay signed in" (or Escape) keeps the session alive with a POST; when the
// time is up the page is loaded again, which sends the person to sign in and back here. Without script the
// dialog never opens; a form posted after the session ended is kept for after signing in.
(function () {
  "use strict";
  var dialog = document.getElementById("session-timeout");
  if (!dialog || typeof dialog.showModal !== "function" || !window.fetch) return;
  var WARN_MS = 2 * 60 * 1000;
  var stayForm = dialog.querySelector("form[data-stay-signed-in]");
  var deadline = Date.now() + Number(dialog.getAttribute("data-seconds-left") || 0) * 1000;
  var timer = null;
  var returnFocus = null;

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(check, Math.max(0, ms));
  }

  function signedOut() {
    // The page again: signed out, it sends the person to sign in, and back here afterwards.
    window.location.reload();
  }

  function closeDialog() {
    if (dialog.open) dialog.close();
    if (returnFocus && typeof returnFocus.focus === "function" && document.contains(returnFocus)) returnFocus.focus();
    returnFocus = null;
  }

  function learned(secondsLeft) {
    deadline = Date.now() + secondsLeft * 1000;
    if (secondsLeft <= 0) return signedOut();
    if (secondsLeft * 1000 > WARN_MS) {
      closeDialog();
      return schedule(deadline - WARN_MS - Date.now());
    }
    if (!dialog.open) {
      returnFocus = document.activeElement;
      dialog.showModal();
      var stay = stayForm && stayForm.querySelector("button");
      if (stay) stay.focus();
    }
    // At the end, ask once more (another tab may have kept the session alive), then sign out.
    schedule(deadline - Date.now());
  }

  function check() {
    fetch("/session/status", { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (status) {
        if (status && typeof status.secondsLeft === "number") learned(status.secondsLeft);
        else schedule(30 * 1000);
      })
      .catch(function () {
        schedule(30 * 1000);
      });
  }

  function staySignedIn() {
    var body = new URLSearchParams(new FormData(stayForm));
    return fetch(stayForm.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: body,
    })
      .then(function (response) {
        if (response.status === 401) return signedOut();
        if (!response.ok) throw new Error("status " + response.status);
        return response.json().then(function (status) {
          closeDialog();
          learned(status.secondsLeft);
        });
      })
      .catch(function () {
        // Could not reach the server: the plain form does the same.
        stayForm.submit();
      });
  }

  if (stayForm) {
    stayForm.addEventListener("submit", function (event) {
      event.preventDefault();
      staySignedIn();
    });
  }
  // Escape means "stay signed in", as in the pattern.
  dialog.addEventListener("cancel", function (event) {
    event.preventDefault();
    staySignedIn();
  });

  schedule(deadline - WARN_MS - Date.now());
})();
