// Progressive enhancement for [data-copy-target] buttons: copy the target's text and say so in a toast, built
// like the server's (app/ui/toast-message.tsx): it fades after 5 s, waits while hovered or focused, and closes.
(function () {
  if (!navigator.clipboard) return;
  document.querySelectorAll("[data-copy-target]").forEach(function (button) {
    var target = document.getElementById(button.getAttribute("data-copy-target"));
    if (!target) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(target.textContent.trim()).then(function () {
        var old = document.querySelector(".toast[data-copy-toast]");
        if (old) old.remove();
        var toast = document.createElement("dialog");
        toast.className = "toast toast--success";
        toast.setAttribute("data-copy-toast", "");
        toast.setAttribute("aria-labelledby", "copy-toast-text");
        var text = document.createElement("p");
        text.className = "toast__text";
        text.id = "copy-toast-text";
        text.setAttribute("role", "status");
        text.textContent = button.getAttribute("data-copied") || "Text copied to clipboard";
        var form = document.createElement("form");
        form.method = "dialog";
        form.className = "toast__close-form";
        var close = document.createElement("button");
        close.type = "submit";
        close.className = "toast__close";
        close.setAttribute("aria-label", button.getAttribute("data-close") || "Close message");
        close.innerHTML = '<span aria-hidden="true">×</span>';
        form.appendChild(close);
        toast.appendChild(text);
        toast.appendChild(form);
        // The attribute, not show(): show() would move focus into the toast, away from the copy button.
        toast.setAttribute("open", "");
        document.body.appendChild(toast);
      });
    });
  });
})();
