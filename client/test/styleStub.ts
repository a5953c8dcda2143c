// Stylesheets are the browser's business: tests import them as nothing.
export default {};
