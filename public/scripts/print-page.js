// Progressive enhancement for [data-print] buttons: print the page (without script, the browser's own Print does it).
(function () {
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      window.print();
    });
  });
})();
