// The viewer's script, in the interview frame. Its message layer with the host page: height, scrollToTop,
// continue after a save, the end of the interview, the step's title, a token request. And each step in one
// round trip: a button's form goes with fetch and the page that comes back takes this one's place, as a full
// load would show it (docs/decisions/0036-one-round-trip-per-step.md). Messages go to, and are taken from, this
// origin only.
(function () {
  "use strict";
  if (window.parent === window) return;
  var origin = window.location.origin;
  var main = document.querySelector("main");
  var steps = window.fetch && window.DOMParser && window.SubmitEvent && "submitter" in SubmitEvent.prototype;
  var busy = false;
  // The address of the page shown: where history moves come back to (the interview's current page).
  var latest = window.location.href;
  function send(message) {
    window.parent.postMessage(message, origin);
  }

  // What each page does once shown, loaded or brought by a step.
  function arrive() {
    var page = main.querySelector("[data-viewer],[data-outcome]");
    // With script the special buttons post inside the frame; the outcome page then tells the host. "Rephrase
    // with AI" and the other AI pages (data-detour) still open in the whole window.
    main.querySelectorAll('button[formtarget="_top"]:not([data-rephrase]):not([data-detour])').forEach(function (button) {
      button.removeAttribute("formtarget");
    });
    var kind = page.getAttribute("data-outcome");
    if (kind === "save-logout") send({ action: kind });
    else if (kind === "success" || kind === "assemble" || kind === "assemble-success" || kind === "complete") {
      send({ action: kind === "complete" ? "success" : kind, href: page.getAttribute("data-href") });
    }
    var saved = page.getAttribute("data-saved") === "true";
    if (saved) {
      send({ action: "continue", interviewId: page.getAttribute("data-interview-id") });
      send({ action: "scrollToTop" });
    }
    // The host page carries the step in its title too, so the step is announced wherever focus is.
    if (!kind) send({ action: "title", title: document.title });
    // After a step, focus goes to the new page's heading, or to the error summary when the page has errors, so
    // a screen reader says where the person is (autofocus does the same without script, where browsers allow).
    var summary = main.querySelector("[data-error-summary]");
    var heading = document.getElementById("viewer-heading");
    if (summary) summary.focus();
    else if (heading && saved) heading.focus();
  }

  // Fetches a page and puts it in place of this one (true). What came back is not a page of the viewer: the text
  // of a short refusal at the edge ("What was sent is too large."), else "".
  function load(url, init, push) {
    init.headers = { "Viewer-Fetch": "1" };
    // The page's long address would go up again with every step, for nothing: on a slow phone every byte waits.
    init.referrerPolicy = "no-referrer";
    return fetch(url, init).then(function (response) {
      return response.text().then(function (text) {
        var doc = new DOMParser().parseFromString(text, "text/html");
        var page = doc.querySelector("[data-viewer],[data-outcome]");
        if (!page) return /^text\/plain/.test(response.headers.get("content-type")) && text.length < 300 ? text : "";
        // Autofocus is for a full load; here focus is moved below.
        page.querySelectorAll("[autofocus]").forEach(function (element) {
          element.removeAttribute("autofocus");
        });
        main.replaceChildren(page);
        document.title = doc.title;
        var form = page.querySelector("form");
        // A full load would be a new entry in the history; the page's address is its form's. In preview the
        // answers live in the page alone, and no address brings them back.
        if (form) latest = form.action;
        if (push && !(form && form.querySelector('[name="_state"]'))) window.history.pushState(null, "", latest);
        arrive();
        return true;
      });
    });
  }

  // Sends the form. If nothing usable comes back, the page stays as it is and says so.
  function step(form, body) {
    busy = true;
    form.setAttribute("aria-busy", "true");
    var sent = form.enctype === "multipart/form-data" ? body : new URLSearchParams(body);
    load(form.action, { method: "POST", body: sent }, true)
      .catch(function () {
        return "";
      })
      .then(function (shown) {
        busy = false;
        if (shown === true) return;
        form.removeAttribute("aria-busy");
        var problem = main.querySelector("[data-step-problem]") || document.createElement("p");
        problem.className = "error-summary";
        problem.setAttribute("role", "alert");
        problem.setAttribute("data-step-problem", "");
        problem.tabIndex = -1;
        // The words are the page's own, in the guide's language (data-send-problem, app/viewer/viewer-page.tsx).
        var page = main.querySelector("[data-send-problem]");
        problem.textContent = shown || (page && page.getAttribute("data-send-problem")) || "Your answers could not be sent. Check your connection, then press the button again.";
        form.parentNode.insertBefore(problem, form);
        problem.focus();
      });
  }

  if (steps) {
    document.addEventListener("submit", function (event) {
      var button = event.submitter;
      // "Rephrase with AI" opens its screen in the whole window.
      if (button && button.getAttribute("formtarget")) return;
      event.preventDefault();
      if (busy) return;
      var body = new FormData(event.target);
      if (button && button.name) body.append(button.name, button.value);
      step(event.target, body);
    });
    // Back and forward show the interview where it is, as loading the page again would.
    window.addEventListener("popstate", function () {
      if (!busy) load(latest, {}, false).catch(function () {});
    });
  }

  window.addEventListener("message", function (event) {
    if (event.origin !== origin || event.source !== window.parent) return;
    var data = event.data || {};
    if (data.action === "token") window.interviewToken = data.token || null;
    // The host page showed this page itself and its form was sent there: the frame takes the step over, showing
    // what the person filled in meanwhile, and tells the host to show the frame instead.
    if (data.action === "takeover" && steps && Array.isArray(data.entries)) {
      var form = main.querySelector("form");
      if (!form || busy) return;
      var body = new FormData();
      data.entries.forEach(function (entry) {
        body.append(entry[0], entry[1]);
      });
      if (body.get("_page") === form.elements._page.value) fill(form, body);
      send({ action: "takeover" });
      step(form, body);
    }
  });

  function fill(form, body) {
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.type === "hidden" || field.type === "submit") return;
      var values = body.getAll(field.name);
      if (field.type === "checkbox" || field.type === "radio") field.checked = values.indexOf(field.value) >= 0;
      else if (field.type === "file") {
        var files = new DataTransfer();
        values.forEach(function (file) {
          if (file.size) files.items.add(file);
        });
        field.files = files.files;
      } else field.value = values.length ? values[0] : "";
    });
  }

  arrive();
  send({ action: "token" });

  // The content's own height (not the document's, which grows with the frame and would feed back).
  var lastHeight = 0;
  function reportHeight() {
    var height = Math.ceil(main.getBoundingClientRect().height);
    if (height !== lastHeight) {
      lastHeight = height;
      send({ action: "height", height: height });
    }
  }
  reportHeight();
  if (window.ResizeObserver) new ResizeObserver(reportHeight).observe(main);
  window.addEventListener("load", reportHeight);
})();
