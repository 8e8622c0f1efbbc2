// Progressive enhancement only: every page works without this file.
// Changing a filter <select> submits the (plain GET) filter form at once.
document.addEventListener("DOMContentLoaded", function () {
  var form = document.querySelector("form.filter-form");
  if (!form) { return; }
  form.querySelectorAll("select").forEach(function (select) {
    select.addEventListener("change", function () { form.submit(); });
  });
});
