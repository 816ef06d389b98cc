// SPDX-License-Identifier: GPL-2.0
/*
 * What report.html carries inline: its style sheet, and the script that
 * sorts the class table by a column (click a header; numbers as numbers),
 * puts failing students first on load and says whether the page holds a
 * row per student (id "check").
 */
#include "html_assets.h"

const char html_style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222}\n"
	"table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.25em .5em}\n"
	"th{background:#eee;cursor:pointer}th.sorted{background:#cde}\n"
	"tr.fail td.result{background:#fcc}tr.pass td.result{background:#cfc}\n"
	"tr.not-graded td.result{background:#eee}td.num{text-align:right}\n"
	".kinds{margin:.2em 0 .8em 1em}.kind{font-weight:bold}";

const char html_script[] =
	"function sortBy(col, asc) {\n"
	"  var t = document.getElementById('class'), b = t.tBodies[0];\n"
	"  var rows = Array.prototype.slice.call(b.rows);\n"
	"  rows.sort(function (x, y) {\n"
	"    var a = x.cells[col].getAttribute('data-v'), c = y.cells[col].getAttribute('data-v');\n"
	"    var na = parseFloat(a), nc = parseFloat(c), r;\n"
	"    r = (!isNaN(na) && !isNaN(nc)) ? na - nc : a.localeCompare(c);\n"
	"    return asc ? r : -r;\n"
	"  });\n"
	"  rows.forEach(function (r) { b.appendChild(r); });\n"
	"  Array.prototype.forEach.call(t.tHead.rows[0].cells, function (h, i) {\n"
	"    h.className = i === col ? 'sorted' : '';\n"
	"  });\n"
	"  t.setAttribute('data-sorted', col + (asc ? ' asc' : ' desc'));\n"
	"}\n"
	"document.addEventListener('DOMContentLoaded', function () {\n"
	"  var t = document.getElementById('class');\n"
	"  Array.prototype.forEach.call(t.tHead.rows[0].cells, function (h, i) {\n"
	"    h.addEventListener('click', function () {\n"
	"      var s = t.getAttribute('data-sorted') === i + ' asc';\n"
	"      sortBy(i, !s);\n"
	"    });\n"
	"  });\n"
	"  sortBy(2, true);\n"
	"  var n = t.tBodies[0].rows.length, want = parseInt(t.getAttribute('data-students'), 10);\n"
	"  var c = document.getElementById('check');\n"
	"  c.textContent = n + ' rows for ' + want + ' students: ' +\n"
	"    (n === want ? 'consistent' : 'INCONSISTENT');\n"
	"  c.setAttribute('data-rows', n);\n"
	"});";
