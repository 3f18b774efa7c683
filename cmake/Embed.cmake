# Embeds files into the binary at build time: editing an embedded file and rebuilding picks it up.
#
# ropelab_embed(TARGET_SOURCE_VAR NAME symbol FILES a b c) generates a .cpp defining
#   std::span<const ropelab::EmbeddedFile> ropelab::embedded::<symbol>()
# whose entries hold each file's base name and bytes.

set(ROPELAB_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/EmbedScript.cmake)

function(ropelab_embed out_var)
    cmake_parse_arguments(ARG "" "NAME" "FILES" ${ARGN})
    set(output ${CMAKE_BINARY_DIR}/embedded/${ARG_NAME}.cpp)
    list(JOIN ARG_FILES "|" files_joined)
    add_custom_command(
        OUTPUT ${output}
        COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DSYMBOL=${ARG_NAME} "-DFILES=${files_joined}"
                -P ${ROPELAB_EMBED_SCRIPT}
        DEPENDS ${ARG_FILES} ${ROPELAB_EMBED_SCRIPT}
        COMMENT "Embedding ${ARG_NAME}"
        VERBATIM)
    set(${out_var} ${output} PARENT_SCOPE)
endfunction()
