// The interview page's side of the message layer with its viewer frame. Only messages from the frame, on this
// origin, are heard; unknown actions only warn.
(function () {
  "use strict";
  var frame = document.querySelector("iframe.viewer-frame");
  if (!frame) return;
  var origin = window.location.origin;
  frame.classList.add("viewer-frame--scripted");
  // The frame loads only with script: without it the host page shows the viewer's page itself.
  var inline = document.querySelector(".viewer-inline");
  if (inline) inline.remove();
  if (!frame.getAttribute("src") && frame.getAttribute("data-src")) frame.setAttribute("src", frame.getAttribute("data-src"));
  var issuePath = window.location.pathname.replace(/\/interviews(\/.*)?$/, "/interviews");

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
        if (typeof message.title === "string" && message.title.length > 0 && message.title.length < 500) document.title = message.title;
        break;
      case "token":
        frame.contentWindow.postMessage({ action: "token", token: frame.getAttribute("data-token") || null }, origin);
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
