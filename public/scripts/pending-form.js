// Progressive enhancement for forms[data-pending]: while the server works (the AI can take many seconds), say
// so in the form's status region, mark the form busy and ignore further submits. Without script the form
// simply posts.
(function () {
  "use strict";
  document.querySelectorAll("form[data-pending]").forEach(function (form) {
    var status = form.querySelector("[data-pending-status]");
    var pending = false;
    form.addEventListener("submit", function (event) {
      if (pending) {
        event.preventDefault();
        return;
      }
      pending = true;
      form.setAttribute("aria-busy", "true");
      if (status) status.textContent = form.getAttribute("data-pending");
    });
    // Coming back through the browser's history shows the form as it was, ready again.
    window.addEventListener("pageshow", function () {
      pending = false;
      form.removeAttribute("aria-busy");
      if (status) status.textContent = "";
    });
  });
})();
