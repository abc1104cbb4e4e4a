// "Leave this page" on the pages of a sensitive issue (app/ui/quick-exit.tsx, docs/decisions/0041): the link,
// or Shift pressed three times, hides the page at once and replaces it, and its entry in the history, with a
// neutral site. In the interview's frame it moves the whole window. Without script the link is a plain link.
(function () {
  "use strict";
  var script = document.currentScript;
  var exitUrl = script && script.getAttribute("data-exit-url");
  if (!exitUrl || window.__quickExit) return;
  window.__quickExit = true;

  var status = document.createElement("span");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  document.body.appendChild(status);

  function leave() {
    document.documentElement.classList.add("quick-exit-leaving");
    status.textContent = "Leaving this page.";
    try {
      window.top.location.replace(exitUrl);
    } catch (error) {
      window.location.replace(exitUrl);
    }
  }

  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("[data-quick-exit-link]") : null;
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    leave();
  });

  // Three presses of Shift alone, each within 5 seconds of the one before; any other key starts again.
  var presses = 0;
  var timer = null;
  function reset() {
    presses = 0;
    status.textContent = "";
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Shift") {
      if (presses) reset();
      return;
    }
    if (event.repeat) return;
    presses += 1;
    window.clearTimeout(timer);
    if (presses >= 3) {
      presses = 0;
      leave();
      return;
    }
    var left = 3 - presses;
    status.textContent = "Shift, press " + left + " more " + (left === 1 ? "time" : "times") + " to leave this page.";
    timer = window.setTimeout(reset, 5000);
  });

  // Back to this page from the browser's cache: show it again.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) document.documentElement.classList.remove("quick-exit-leaving");
  });
})();
