// The interview page's side of the message layer with its viewer frame. Only messages from the frame, on this
// origin, are heard; unknown actions only warn. The page arrives with the viewer's page in place (the first
// question shows without waiting for a second document); the frame loads it unseen and takes over at the first
// step, which it sends in one round trip (docs/decisions/0036-one-round-trip-per-step.md).
(function () {
  "use strict";
  var frame = document.querySelector("iframe.viewer-frame");
  if (!frame) return;
  var origin = window.location.origin;
  frame.classList.add("viewer-frame--scripted");
  var inline = document.querySelector(".viewer-inline");
  // A submission of the page in place, until the frame can take it over.
  var waiting = null;
  var ready = false;
  var native = false;
  if (!frame.getAttribute("src") && frame.getAttribute("data-src")) frame.setAttribute("src", frame.getAttribute("data-src"));
  var issuePath = window.location.pathname.replace(/\/interviews(\/.*)?$/, "/interviews");

  // The buttons that move the whole window (Save and finish later, Confirm and finish, Rephrase with AI) post
  // from the page in place as they do without script.
  if (inline && window.fetch && window.DOMParser && window.SubmitEvent && "submitter" in SubmitEvent.prototype) {
    inline.addEventListener("submit", function (event) {
      var button = event.submitter;
      if (native || (button && button.getAttribute("formtarget"))) return;
      event.preventDefault();
      if (waiting) return;
      var entries = [];
      new FormData(event.target).forEach(function (value, name) {
        entries.push([name, value]);
      });
      if (button && button.name) entries.push([button.name, button.value]);
      waiting = { form: event.target, button: button, entries: entries };
      event.target.setAttribute("aria-busy", "true");
      if (ready) forward();
    });
    // A frame that loaded without its script (an error page, a network failure) cannot take over: the page in
    // place posts as it does without script.
    frame.addEventListener("load", function () {
      if (ready || !waiting) return;
      native = true;
      waiting.form.removeAttribute("aria-busy");
      waiting.form.requestSubmit(waiting.button);
    });
  }

  function forward() {
    frame.contentWindow.postMessage({ action: "takeover", entries: waiting.entries }, origin);
  }

  window.addEventListener("message", function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    var message = event.data || {};
    switch (message.action) {
      case "height": {
        var height = Number(message.height);
        if (height > 0 && height < 100000) frame.style.height = height + 20 + "px";
        break;
      }
      case "scrollToTop":
        window.scrollTo(0, 0);
        break;
      case "continue":
        if (/^[0-9a-f-]{36}$/.test(message.interviewId || "")) {
          window.history.replaceState(null, "", issuePath + "/" + message.interviewId);
        }
        break;
      case "title":
        // The page in place carries its own title until the frame shows.
        if (!inline && typeof message.title === "string" && message.title.length > 0 && message.title.length < 500) document.title = message.title;
        break;
      case "token":
        frame.contentWindow.postMessage({ action: "token", token: frame.getAttribute("data-token") || null }, origin);
        ready = true;
        if (waiting) forward();
        break;
      case "takeover":
        // The frame shows the page as it was filled in and sends it: it replaces the page in place.
        if (inline) inline.remove();
        inline = null;
        frame.classList.remove("viewer-frame--waiting");
        frame.removeAttribute("inert");
        break;
      case "save-logout":
        window.location.assign("/");
        break;
      case "success":
      case "assemble":
      case "assemble-success":
        if (typeof message.href === "string" && message.href.charAt(0) === "/" && message.href.charAt(1) !== "/") {
          window.location.assign(message.href);
        }
        break;
      default:
        console.warn("Unknown message from the interview viewer:", message.action);
    }
  });
})();
