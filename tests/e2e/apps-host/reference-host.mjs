// The host side of tests/e2e/mcp-apps-view.test.mjs's reference run: the ext-apps project's own
// AppBridge and PostMessageTransport (npm @modelcontextprotocol/ext-apps, the library hosts
// build on), bundled for the browser by the test with esbuild. It validates every message
// against the extension's schemas, so the view is checked against the reference implementation
// of the protocol, not only against this repository's test host.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

window.__log = [];
window.__links = [];
window.__sizes = [];

window.__start = async (options) => {
  const frame = document.getElementById('view');
  const bridge = new AppBridge(
    null,
    { name: 'ext-apps-app-bridge', version: '2.0.4' },
    { openLinks: {}, serverTools: {}, serverResources: {} },
    {
      hostContext: {
        theme: options.theme,
        displayMode: 'inline',
        availableDisplayModes: ['inline', 'fullscreen'],
        containerDimensions: { width: 760, maxHeight: 8000 },
      },
    },
  );
  bridge.oncalltool = async (params) => {
    window.__log.push('tools/call ' + params.name);
    return window.callServer(params.name, params.arguments || {});
  };
  bridge.onopenlink = async ({ url }) => {
    window.__links.push(url);
    return {};
  };
  bridge.onsizechange = (size) => {
    window.__sizes.push(size);
    if (size.height) frame.style.height = size.height + 'px';
  };
  bridge.onrequestdisplaymode = async ({ mode }) => {
    window.__log.push('display ' + mode);
    return { mode };
  };
  bridge.onmessage = async () => {
    window.__log.push('ui/message');
    return {};
  };
  bridge.oninitialized = async () => {
    window.__log.push('initialized');
    await bridge.sendToolInput({ arguments: options.toolInput });
    await bridge.sendToolResult(options.toolResult);
  };
  // Listening before the frame loads: the view sends ui/initialize as soon as it starts.
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = options.html;
};
