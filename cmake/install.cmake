# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# install.cmake: what `cmake --install` and `cpack -G DEB` put under the
# prefix. Nothing installed names the source or build tree: the package
# files find their prefix from where they lie, and -ffile-prefix-map keeps
# build paths out of the debug information.
include(CMakePackageConfigHelpers)

install(TARGETS ws-opt RUNTIME DESTINATION bin)
install(TARGETS ws ARCHIVE DESTINATION lib)
install(TARGETS WSPlugin LIBRARY DESTINATION lib)
install(TARGETS ws-c ws-launch LIBRARY DESTINATION lib)
install(DIRECTORY "${CMAKE_SOURCE_DIR}/capi/include/ws-c" DESTINATION include)
install(FILES "${CMAKE_SOURCE_DIR}/dialect/ws.irdl.mlir" DESTINATION share/ws)
install(FILES "${CMAKE_SOURCE_DIR}/LICENSE" DESTINATION share/doc/ws)

set(WS_MLIR_MAJOR ${LLVM_VERSION_MAJOR})
configure_file("${CMAKE_SOURCE_DIR}/cmake/wsConfig.cmake.in"
               "${CMAKE_BINARY_DIR}/package/wsConfig.cmake" @ONLY)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/package/wsConfigVersion.cmake"
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/package/wsConfig.cmake"
              "${CMAKE_BINARY_DIR}/package/wsConfigVersion.cmake"
        DESTINATION lib/cmake/ws)

string(REPLACE ";" " " WS_PC_CAPI_ARCHIVES "${WS_MLIR_CAPI_ARCHIVES}")
list(GET MLIR_INCLUDE_DIRS 0 WS_PC_MLIR_INCLUDE)
configure_file("${CMAKE_SOURCE_DIR}/cmake/ws.pc.in" "${CMAKE_BINARY_DIR}/package/ws.pc" @ONLY)
install(FILES "${CMAKE_BINARY_DIR}/package/ws.pc" DESTINATION lib/pkgconfig)

# cpack -G DEB: the same files under /usr.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ws)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "ws maintainers <ws@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ws: automatic warp specialization for MLIR, in C")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libmlir-${LLVM_VERSION_MAJOR}-dev, mlir-${LLVM_VERSION_MAJOR}-tools")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
