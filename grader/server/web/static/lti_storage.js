// The LMS's storage for a login (IMS LTI Client Side postMessages, Platform Storage), from the tool's page in
// the LMS's frame. The login's page puts its value under its key (lti.put_data), then goes on to the LMS's
// authorization; the launch's page gets it back (lti.get_data) and posts it with the launch to the tool. The
// messages go to the LMS's authorization origin only, and only answers from that origin are read.
(function () {
  "use strict";
  var here = document.getElementById("lti-storage");
  if (!here) { return; }
  var data = here.dataset, origin = data.origin, waited = parseInt(data.timeout, 10) || 2500;

  function frame(name) {   // lti_storage_target: "_parent", or a frame of the parent (or top) window
    if (name && name !== "_parent") {
      try { if (window.parent.frames[name]) { return window.parent.frames[name]; } } catch (e) { /* cross-origin */ }
      try { if (window.top.frames[name]) { return window.top.frames[name]; } } catch (e) { /* cross-origin */ }
    }
    return window.parent;
  }

  function ask(target, message, wait) {   // the answer of ``target`` to ``message``, or why there is none
    return new Promise(function (resolve, reject) {
      var id = "hog-" + Date.now() + "-" + Math.random().toString(36).slice(2), timer;
      function heard(event) {
        var answer = event.data;
        if (event.origin !== origin || !answer || typeof answer !== "object" ||
            answer.subject !== message.subject + ".response" || answer.message_id !== id) { return; }
        window.removeEventListener("message", heard);
        clearTimeout(timer);
        if (answer.error) {
          reject(String(answer.error.code || answer.error.message || "error"));
        } else {
          resolve(answer);
        }
      }
      message.message_id = id;
      window.addEventListener("message", heard);
      timer = setTimeout(function () { window.removeEventListener("message", heard); reject("timeout"); }, wait);
      try { target.postMessage(message, origin); } catch (e) { clearTimeout(timer); reject("no such frame"); }
    });
  }

  function storage(subject) {   // the frame that takes ``subject``: as lti.capabilities says, else the target
    return ask(window.parent, {subject: "lti.capabilities"}, Math.min(waited, 1000)).then(function (answer) {
      var offered = (answer.supported_messages || []).filter(function (each) { return each.subject === subject; });
      if (!offered.length) { throw "the LMS does not offer " + subject; }
      return frame(offered[0].frame || data.target);
    }, function (why) {
      if (why !== "timeout") { throw why; }
      return frame(data.target);   // lti.capabilities is optional
    });
  }

  if (!origin || window.parent === window) {
    if (data.step === "put") { window.location.replace(data.next); } else { sent("no LMS frame"); }
    return;
  }
  if (data.step === "put") {
    storage("lti.put_data").then(function (target) {
      return ask(target, {subject: "lti.put_data", key: data.key, value: data.value}, waited);
    }).then(null, function () { /* the cookie may do */ }).then(function () { window.location.replace(data.next); });
  } else {
    storage("lti.get_data").then(function (target) {
      return ask(target, {subject: "lti.get_data", key: data.key}, waited);
    }).then(function (answer) { sent("", answer.value); }, function (why) { sent(String(why)); });
  }

  function sent(failed, value) {
    var form = document.getElementById("lti-storage-form");
    form.elements.value.value = typeof value === "string" ? value : "";
    form.elements.failed.value = failed || (typeof value === "string" ? "" : "no value");
    form.submit();
  }
}());
