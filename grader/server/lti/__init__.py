"""The course server as an LTI 1.3 tool (IMS LTI 1.3 Core, Security Framework 1.0, Assignment and Grade Services
2.0): platforms registered (``platforms``), the tool's keys and the platforms' (``keys``), the launch's
checks (``launch``; its routes are ``grader.server.web.lti``), who a platform's user is (``roster``), and the
counted scores sent back to the platforms' gradebooks (``passback`` over ``ags``). JOSE is joserfc's; nothing
here makes its own cryptography."""
