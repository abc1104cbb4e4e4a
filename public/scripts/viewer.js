// The viewer's message layer, in the interview frame: height, scrollToTop, continue after a save,
// the end of the interview, and a token request. Messages go to, and are taken from, this origin only.
(function () {
  "use strict";
  if (window.parent === window) return;
  var origin = window.location.origin;
  var root = document.querySelector("[data-viewer]") || document.querySelector("[data-outcome]");
  function send(message) {
    window.parent.postMessage(message, origin);
  }

  // With script the special buttons post inside the frame; the outcome page then tells the host. "Rephrase
  // with AI" and the other AI pages (data-detour) still open in the whole window.
  document.querySelectorAll('button[formtarget="_top"]:not([data-rephrase]):not([data-detour])').forEach(function (button) {
    button.removeAttribute("formtarget");
  });

  window.addEventListener("message", function (event) {
    if (event.origin !== origin || event.source !== window.parent) return;
    if (event.data && event.data.action === "token") window.interviewToken = event.data.token || null;
  });

  var outcome = document.querySelector("[data-outcome]");
  if (outcome) {
    var kind = outcome.getAttribute("data-outcome");
    var href = outcome.getAttribute("data-href");
    if (kind === "save-logout") send({ action: "save-logout" });
    else if (kind === "success" || kind === "assemble" || kind === "assemble-success" || kind === "complete") {
      send({ action: kind === "complete" ? "success" : kind, href: href });
    }
  }
  if (root && root.getAttribute("data-saved") === "true") {
    send({ action: "continue", interviewId: root.getAttribute("data-interview-id") });
    send({ action: "scrollToTop" });
  }
  // The host page carries the step in its title too, so the step is announced wherever focus is.
  if (document.querySelector("[data-viewer]")) send({ action: "title", title: document.title });
  // After a step, focus goes to the new page's heading, or to the error summary when the page has errors, so
  // a screen reader says where the person is (autofocus does the same without script, where browsers allow).
  var summary = document.querySelector("[data-error-summary]");
  var heading = document.getElementById("viewer-heading");
  if (summary) summary.focus();
  else if (heading && root && root.getAttribute("data-saved") === "true") heading.focus();
  send({ action: "token" });

  // The content's own height (not the document's, which grows with the frame and would feed back).
  var content = document.querySelector("main") || document.body;
  var lastHeight = 0;
  function reportHeight() {
    var height = Math.ceil(content.getBoundingClientRect().height);
    if (height !== lastHeight) {
      lastHeight = height;
      send({ action: "height", height: height });
    }
  }
  reportHeight();
  if (window.ResizeObserver) new ResizeObserver(reportHeight).observe(content);
  window.addEventListener("load", reportHeight);
})();
