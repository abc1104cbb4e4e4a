// A drawn signature, where scripts run (docs/decisions/0055): a canvas drawn on with pointer events (finger, pen
// or mouse) inside the signature's fieldset, kept as a PNG in the form's hidden "drawing" field. The typed full
// name stays required beside it: keyboards and screen readers sign by typing, and the drawing is only added.
(function () {
  document.querySelectorAll("[data-signature-pad]").forEach(function (pad) {
    var form = pad.closest("form");
    var field = form && form.querySelector("[data-signature-drawing]");
    if (!field) return;
    var canvas = document.createElement("canvas");
    canvas.className = "signature-pad__canvas";
    canvas.width = 600;
    canvas.height = 200;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", pad.getAttribute("data-canvas-label") || "Signature drawing area");
    canvas.setAttribute("aria-describedby", "signature-pad-hint");
    var clear = document.createElement("button");
    clear.type = "button";
    clear.className = "button button--secondary button--small";
    clear.textContent = pad.getAttribute("data-clear") || "Clear the drawing";
    pad.appendChild(canvas);
    pad.appendChild(clear);
    pad.hidden = false;
    var context = canvas.getContext("2d");
    context.lineWidth = 3;
    context.lineCap = "round";
    context.lineJoin = "round";
    context.strokeStyle = "#1b2430";
    var drawing = false;
    var drawn = false;
    function at(event) {
      var box = canvas.getBoundingClientRect();
      return { x: ((event.clientX - box.left) * canvas.width) / box.width, y: ((event.clientY - box.top) * canvas.height) / box.height };
    }
    canvas.addEventListener("pointerdown", function (event) {
      drawing = true;
      canvas.setPointerCapture(event.pointerId);
      var p = at(event);
      context.beginPath();
      context.moveTo(p.x, p.y);
      context.lineTo(p.x + 0.1, p.y + 0.1);
      context.stroke();
      event.preventDefault();
    });
    canvas.addEventListener("pointermove", function (event) {
      if (!drawing) return;
      var p = at(event);
      context.lineTo(p.x, p.y);
      context.stroke();
      drawn = true;
      event.preventDefault();
    });
    function end() {
      if (!drawing) return;
      drawing = false;
      if (drawn) field.value = canvas.toDataURL("image/png");
    }
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);
    clear.addEventListener("click", function () {
      context.clearRect(0, 0, canvas.width, canvas.height);
      drawn = false;
      field.value = "";
    });
  });
})();
