// Progressive enhancement for [data-copy-target] buttons: copy the target's text and say so in a toast.
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
        var toast = document.createElement("div");
        toast.className = "toast toast--success";
        toast.setAttribute("role", "status");
        toast.setAttribute("data-copy-toast", "");
        toast.textContent = "Text copied to clipboard";
        document.body.appendChild(toast);
      });
    });
  });
})();
