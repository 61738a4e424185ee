// The deep linking response goes back to the LMS at once (the button is there if scripts do not run).
document.getElementById("lti-return").submit();
