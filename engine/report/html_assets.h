/* The page's inline style and script (semi-private): engine/report/html_page.css
 * and html_page.js as line literals, NULL-terminated, in html_assets.c, which
 * tools/html_embed.awk writes at build time (engine/report/local.mk). */
#ifndef TLC_ENGINE_HTML_ASSETS_H
#define TLC_ENGINE_HTML_ASSETS_H

extern const char *const tlc_html__css[];
extern const char *const tlc_html__js[];

#endif
